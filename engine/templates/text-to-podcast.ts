import type { WorkflowTemplate } from './types';

/**
 * Text → podcast: an LLM writes a short two-voice script (lines `Host: …` / `Guest: …`), and the TTS node speaks each
 * line in its speaker's voice and joins them into one audio artifact. Offline (no key) the demo model's answer is
 * spoken by the offline synthesizer (espeak-ng) as a real, playable WAV.
 */
export const TEXT_TO_PODCAST_TEMPLATE: WorkflowTemplate = {
  id: 'text-to-podcast',
  category: 'media',
  name: { en: 'Text → podcast', zh: '文本转播客' },
  description: {
    en: 'An LLM turns a topic or an article into a two-voice podcast script, and text-to-speech reads it aloud.',
    zh: '大模型把一个话题或一篇文章改写成双人对话的播客脚本，再用语音合成朗读出来，生成音频文件。',
  },
  howTo: {
    en:
      '1. Run it with the sample topic: the trace shows the script and an audio player for the result.\n' +
      '2. Without a model server the script comes from the offline demo model and the voice from the built-in ' +
      'offline synthesizer (robotic, but real audio). Add an OpenAI-compatible credential to the LLM and speech ' +
      'nodes for natural voices.\n' +
      '3. In the speech node, "speakers" maps each script name to a voice (alloy, nova, onyx …); format mp3 or wav.',
    zh:
      '1. 用示例话题运行：运行轨迹里能看到生成的脚本，以及可直接播放的音频。\n' +
      '2. 未配置任何模型服务时，脚本来自离线演示模型，声音来自内置的离线语音合成器（音色较机械，但确实是可播放的音频）。' +
      '为大模型节点和语音节点配置 OpenAI 兼容的凭据后，即可获得自然的人声。\n' +
      '3. 在语音节点的 speakers 中为脚本里的每个角色指定音色（alloy、nova、onyx 等）；格式可选 mp3 或 wav。',
  },
  tags: ['podcast', 'speech', 'tts', 'audio', 'script', '播客', '语音合成', '音频', '脚本'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 120 },
        data: {
          label: 'Topic',
          config: {
            inputs: [
              {
                name: 'topic',
                type: 'string',
                required: false,
                default: 'Why the night sky is dark, even though there are billions of stars.',
                description: 'A topic, or an article to turn into a podcast episode',
              },
            ],
          },
        },
      },
      {
        id: 'script',
        type: 'llm',
        position: { x: 280, y: 120 },
        data: {
          label: 'Write the script',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.8,
            stream: true,
            systemPrompt:
              'You write scripts for a short two-person podcast. Write 8 to 12 lines of lively dialogue between ' +
              'the Host and the Guest about what the user gives you. Every line starts with "Host:" or "Guest:" ' +
              'followed by what that person says; no titles, stage directions, sound effects or Markdown. Write ' +
              'the dialogue in the language of the user’s text (for Chinese text, still start each line with ' +
              '"Host:" or "Guest:").',
            userPrompt: '{{inputs.topic}}',
          },
        },
      },
      {
        id: 'speech',
        type: 'tts',
        position: { x: 560, y: 120 },
        data: {
          label: 'Speak it',
          config: {
            text: '{{script.output.text}}',
            model: 'gpt-4o-mini-tts',
            voice: 'alloy',
            format: 'mp3',
            speakers: [
              { name: 'Host', voice: 'nova' },
              { name: 'Guest', voice: 'onyx' },
              { name: '主持人', voice: 'nova' },
              { name: '嘉宾', voice: 'onyx' },
            ],
            fileName: 'podcast',
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 840, y: 120 },
        data: {
          label: 'Episode',
          config: {
            outputs: [
              { name: 'audio', value: '{{speech.output}}' },
              { name: 'script', value: '{{script.output.text}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'script' },
      { id: 'e2', source: 'script', target: 'speech' },
      { id: 'e3', source: 'speech', target: 'end' },
    ],
  },
  zh: {
    labels: { start: '话题', script: '撰写脚本', speech: '朗读', end: '节目' },
    config: {
      start: {
        inputs: [
          {
            name: 'topic',
            type: 'string',
            required: false,
            default: '为什么夜空是黑的，明明天上有数十亿颗星星？',
            description: '一个话题，或一篇要改编成播客节目的文章',
          },
        ],
      },
    },
  },
};
