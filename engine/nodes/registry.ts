/**
 * The node types PaiFlow ships, registered in one place: adding a node type is its file (or folder) and its line here.
 * The registry itself, and the contract a node type implements, are engine/node-kit's.
 */
import { NodeRegistry } from '../node-kit/registry';
import { startNode } from './start.node';
import { endNode } from './end.node';
import { llmNode } from './llm.node';
import { templateNode } from './template.node';
import { conditionNode } from './condition.node';
import { httpNode } from './http.node';
import { loopNode } from './loop.node';
import { humanInputNode } from './human-input.node';
import { agentNode } from './agent.node';
import { knowledgeNode } from './knowledge.node';
import { multiAgentNode } from './multi-agent.node';
import { workflowNode } from './workflow.node';
import { codeNode } from './code.node';
import { ttsNode } from './tts.node';
import { imageNode } from './image.node';

export { NodeRegistry };

export function createDefaultRegistry(): NodeRegistry {
  return new NodeRegistry()
    .register(startNode)
    .register(endNode)
    .register(llmNode)
    .register(templateNode)
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
    .register(imageNode);
}
