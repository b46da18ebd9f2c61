/**
 * The texts of every node type for readers (the `nodes` message namespace: labels, descriptions, config field labels,
 * handles, output fields), each in its package's messages.en.json and messages.zh-CN.json. JSON only, so the message
 * bundle (messages/index.ts) imports no engine code. Keys are `<type>.…` as lib/i18n/node-catalogue.ts reads them;
 * the order is the registry's. test/architecture/adding-a-node-type-touches-its-folder-and-its-registry-lines.test.ts
 * checks that every package folder is listed here and in registry.ts, with both files.
 */
import startEn from './start/messages.en.json';
import startZh from './start/messages.zh-CN.json';
import endEn from './end/messages.en.json';
import endZh from './end/messages.zh-CN.json';
import llmEn from './llm/messages.en.json';
import llmZh from './llm/messages.zh-CN.json';
import templateEn from './template/messages.en.json';
import templateZh from './template/messages.zh-CN.json';
import listOperatorEn from './list_operator/messages.en.json';
import listOperatorZh from './list_operator/messages.zh-CN.json';
import variableAggregatorEn from './variable_aggregator/messages.en.json';
import variableAggregatorZh from './variable_aggregator/messages.zh-CN.json';
import documentExtractorEn from './document_extractor/messages.en.json';
import documentExtractorZh from './document_extractor/messages.zh-CN.json';
import conditionEn from './condition/messages.en.json';
import conditionZh from './condition/messages.zh-CN.json';
import httpEn from './http/messages.en.json';
import httpZh from './http/messages.zh-CN.json';
import loopEn from './loop/messages.en.json';
import loopZh from './loop/messages.zh-CN.json';
import humanInputEn from './human_input/messages.en.json';
import humanInputZh from './human_input/messages.zh-CN.json';
import agentEn from './agent/messages.en.json';
import agentZh from './agent/messages.zh-CN.json';
import multiAgentEn from './multi_agent/messages.en.json';
import multiAgentZh from './multi_agent/messages.zh-CN.json';
import knowledgeEn from './knowledge/messages.en.json';
import knowledgeZh from './knowledge/messages.zh-CN.json';
import workflowEn from './workflow/messages.en.json';
import workflowZh from './workflow/messages.zh-CN.json';
import codeEn from './code/messages.en.json';
import codeZh from './code/messages.zh-CN.json';
import ttsEn from './tts/messages.en.json';
import ttsZh from './tts/messages.zh-CN.json';
import imageEn from './image/messages.en.json';
import imageZh from './image/messages.zh-CN.json';
import questionClassifierEn from './question_classifier/messages.en.json';
import questionClassifierZh from './question_classifier/messages.zh-CN.json';
import parameterExtractorEn from './parameter_extractor/messages.en.json';
import parameterExtractorZh from './parameter_extractor/messages.zh-CN.json';
import variableAssignerEn from './variable_assigner/messages.en.json';
import variableAssignerZh from './variable_assigner/messages.zh-CN.json';

export const NODE_MESSAGES = {
  en: {
    start: startEn,
    end: endEn,
    llm: llmEn,
    template: templateEn,
    list_operator: listOperatorEn,
    variable_aggregator: variableAggregatorEn,
    document_extractor: documentExtractorEn,
    condition: conditionEn,
    http: httpEn,
    loop: loopEn,
    human_input: humanInputEn,
    agent: agentEn,
    multi_agent: multiAgentEn,
    knowledge: knowledgeEn,
    workflow: workflowEn,
    code: codeEn,
    tts: ttsEn,
    image: imageEn,
    question_classifier: questionClassifierEn,
    parameter_extractor: parameterExtractorEn,
    variable_assigner: variableAssignerEn,
  },
  'zh-CN': {
    start: startZh,
    end: endZh,
    llm: llmZh,
    template: templateZh,
    list_operator: listOperatorZh,
    variable_aggregator: variableAggregatorZh,
    document_extractor: documentExtractorZh,
    condition: conditionZh,
    http: httpZh,
    loop: loopZh,
    human_input: humanInputZh,
    agent: agentZh,
    multi_agent: multiAgentZh,
    knowledge: knowledgeZh,
    workflow: workflowZh,
    code: codeZh,
    tts: ttsZh,
    image: imageZh,
    question_classifier: questionClassifierZh,
    parameter_extractor: parameterExtractorZh,
    variable_assigner: variableAssignerZh,
  },
};
