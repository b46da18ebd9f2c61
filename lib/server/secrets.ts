import type { SecretsReader } from '@/engine/nodes/define';

/**
 * Secrets by name. Nodes reference a secret's name (e.g. `apiKeySecret: "DEEPSEEK_KEY"`), never its value, so
 * values never enter graphs, snapshots or traces. Values come from the environment as `SECRET_<NAME>`.
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): SecretsReader {
  return {
    get(name: string) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
      return env[`SECRET_${name}`] || (name === 'OPENAI_API_KEY' ? env.OPENAI_API_KEY : undefined) || undefined;
    },
  };
}
