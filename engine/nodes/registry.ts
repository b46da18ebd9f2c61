/**
 * The node types PaiFlow ships, registered in one place. Each node type is a package: the folder
 * engine/nodes/<type>/, named exactly as the type's id (`human_input/`, `multi_agent/`), holds index.ts (its
 * definition and execute), the helpers only it uses, its texts for readers (messages.en.json, messages.zh-CN.json)
 * and its tests; helpers several types use are in shared/, and no package imports another. Adding a node type is its
 * folder, its line here and its texts' line in messages.ts (JSON only, for the message bundle):
 * test/architecture/adding-a-node-type-touches-its-folder-and-its-registry-lines.test.ts holds the three together.
 * The registry itself, and the contract a node type implements, are engine/node-kit's.
 */
import { NodeRegistry } from '../node-kit/registry';
import { startNode } from './start';
import { endNode } from './end';
import { llmNode } from './llm';
import { templateNode } from './template';
import { listOperatorNode } from './list_operator';
import { variableAggregatorNode } from './variable_aggregator';
import { documentExtractorNode } from './document_extractor';
import { conditionNode } from './condition';
import { httpNode } from './http';
import { loopNode } from './loop';
import { humanInputNode } from './human_input';
import { agentNode } from './agent';
import { knowledgeNode } from './knowledge';
import { multiAgentNode } from './multi_agent';
import { workflowNode } from './workflow';
import { codeNode } from './code';
import { ttsNode } from './tts';
import { imageNode } from './image';
import { questionClassifierNode } from './question_classifier';
import { parameterExtractorNode } from './parameter_extractor';
import { variableAssignerNode } from './variable_assigner';

export { NodeRegistry };

export function createDefaultRegistry(): NodeRegistry {
  return new NodeRegistry()
    .register(startNode)
    .register(endNode)
    .register(llmNode)
    .register(templateNode)
    .register(listOperatorNode)
    .register(variableAggregatorNode)
    .register(documentExtractorNode)
    .register(conditionNode)
    .register(httpNode)
    .register(loopNode)
    .register(humanInputNode)
    .register(agentNode)
    .register(multiAgentNode)
    .register(knowledgeNode)
    .register(workflowNode)
    .register(codeNode)
    .register(ttsNode)
    .register(imageNode)
    .register(questionClassifierNode)
    .register(parameterExtractorNode)
    .register(variableAssignerNode);
}
