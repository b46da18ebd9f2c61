/**
 * `gen_ai.provider.name` (OpenTelemetry GenAI semantic conventions) of an OpenAI-compatible endpoint, from its host:
 * the convention's well-known value where the host is that provider's own API, else "openai" — the API family every
 * call here speaks, which the conventions name for OpenAI-compatible clients whose real provider is not known (a
 * proxy, vLLM, Ollama …). Tracing backends group and price spans by this name.
 */
const BY_HOST: [RegExp, string][] = [
  [/^api\.openai\.com$/, 'openai'],
  [/\.openai\.azure\.com$/, 'azure.ai.openai'],
  [/(^|\.)(services\.ai|inference\.ai|cognitiveservices)\.azure\.com$/, 'azure.ai.inference'],
  [/^api\.deepseek\.com$/, 'deepseek'],
  [/^api\.groq\.com$/, 'groq'],
  [/^api\.mistral\.ai$/, 'mistral_ai'],
  [/^api\.x\.ai$/, 'x_ai'],
  [/^api\.perplexity\.ai$/, 'perplexity'],
  [/^api\.anthropic\.com$/, 'anthropic'],
  [/^api\.cohere\.(ai|com)$/, 'cohere'],
  [/^generativelanguage\.googleapis\.com$/, 'gcp.gemini'],
  [/(^|[.-])aiplatform\.googleapis\.com$/, 'gcp.vertex_ai'],
  [/^bedrock(-runtime)?(-fips)?\.[a-z0-9-]+\.amazonaws\.com$/, 'aws.bedrock'],
  [/\.ml\.cloud\.ibm\.com$/, 'ibm.watsonx.ai'],
];

/** The name for the offline demo model: not a provider of the conventions' list, so one of ours. */
export const DEMO_PROVIDER_NAME = 'paiflow.demo';

export function genAiProviderName(baseURL: string): string {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return 'openai';
  }
  return BY_HOST.find(([re]) => re.test(host))?.[1] ?? 'openai';
}
