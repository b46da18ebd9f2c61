import { PaiError } from '../../errors';

/** A resolved config value as the text a model reads: strings as they are, anything else as JSON, nothing as ''. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** The task an agent node works on, as text; refused when its references resolved to nothing. */
export function agentTask(task: unknown): string {
  const text = asText(task);
  if (!text.trim())
    throw new PaiError('INVALID_CONFIG', 'the task is empty after resolving its references', { path: 'config.task' });
  return text;
}
