import type { SecretsReader } from '@/engine/node-kit/define';

/**
 * Secrets by name. Nodes reference a secret's name (e.g. `apiKeySecret: "DEEPSEEK_KEY"`), never its value, so
 * values never enter graphs, snapshots or traces. Values come from the environment as `SECRET_<NAME>`.
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): SecretsReader {
  const valid = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
  return {
    get(name: string) {
      if (!valid(name)) return undefined;
      return env[`SECRET_${name}`] || (name === 'OPENAI_API_KEY' ? env.OPENAI_API_KEY : undefined) || undefined;
    },
    /** `SECRET_<NAME>_HOSTS`: comma-separated hosts (`host`, `host:port`, `*.domain`) the secret may be sent to. */
    hosts(name: string) {
      const raw = valid(name) ? env[`SECRET_${name}_HOSTS`] : undefined;
      const list = (raw ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      return list.length ? list : undefined;
    },
  };
}
