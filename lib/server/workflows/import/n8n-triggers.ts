/**
 * n8n's triggers all become PaiFlow's one Start node. A PaiFlow trigger is not part of the graph: it is created for
 * a published workflow (POST /api/workflows/:id/triggers). So a Webhook or Schedule trigger is reported with the
 * trigger to create — the webhook mapping its request's body, query and headers to the start inputs of the same
 * names (what n8n's `$json.body` … read), the schedule with its rule as a cron expression.
 */
import type { N8nContext, N8nNode } from './n8n-context';
import type { N8nConverted } from './n8n-flow';
import { t } from './report';
import { dict, dicts, int, list, num, str } from './values';

const LEGACY_START = 'n8n-nodes-base.start';

export function isTrigger(type: string): boolean {
  return (
    type === 'n8n-nodes-base.webhook' ||
    type === 'n8n-nodes-base.cron' ||
    type === LEGACY_START ||
    /Trigger$/.test(type)
  );
}

/** An n8n Schedule rule as a cron expression (minute hour day-of-month month day-of-week; seconds first if any). */
export function cronOf(rule: unknown): string | undefined {
  const iv = dicts(dict(rule).interval)[0] ?? {};
  const minute = int(iv.triggerAtMinute, 0, 59) ?? 0;
  const hour = int(iv.triggerAtHour, 0, 23) ?? 0;
  const every = (v: unknown, fallback: number) => Math.max(1, int(v, 1, 1000) ?? fallback);
  switch (str(iv.field, 'days')) {
    case 'cronExpression':
      return str(iv.expression).trim() || undefined;
    case 'seconds':
      return `*/${every(iv.secondsInterval, 30)} * * * * *`;
    case 'minutes':
      return `*/${every(iv.minutesInterval, 5)} * * * *`;
    case 'hours':
      return `${minute} */${every(iv.hoursInterval, 1)} * * *`;
    case 'days': {
      const n = every(iv.daysInterval, 1);
      return `${minute} ${hour} ${n > 1 ? `*/${n}` : '*'} * *`;
    }
    case 'weeks': {
      const days = list(iv.triggerAtDay)
        .map((d) => num(d))
        .filter((d) => d !== undefined);
      return `${minute} ${hour} * * ${days.length ? days.join(',') : '0'}`;
    }
    case 'months':
      return `${minute} ${hour} ${int(iv.triggerAtDayOfMonth, 1, 31) ?? 1} */${every(iv.monthsInterval, 1)} *`;
  }
  return undefined;
}

/** The legacy Cron node's first time as a cron expression. */
function legacyCron(p: Record<string, unknown>): string | undefined {
  const item = dicts(dict(p.triggerTimes).item)[0] ?? {};
  const minute = int(item.minute, 0, 59) ?? 0;
  const hour = int(item.hour, 0, 23) ?? 0;
  return (
    {
      everyMinute: '* * * * *',
      everyHour: `${minute} * * * *`,
      everyDay: `${minute} ${hour} * * *`,
      everyWeek: `${minute} ${hour} * * ${int(item.weekday, 0, 6) ?? 1}`,
      everyMonth: `${minute} ${hour} ${int(item.dayOfMonth, 1, 31) ?? 1} * *`,
      custom: str(item.cronExpression).trim(),
    } as Record<string, string>
  )[str(item.mode, 'everyDay')];
}

export function triggerNode(
  n: N8nNode,
  c: N8nContext,
  timezone: string,
): N8nConverted & { trigger?: Record<string, unknown> } {
  const p = dict(n.parameters);
  const type = n.type;
  if (type === 'n8n-nodes-base.webhook') {
    for (const name of ['body', 'query', 'headers'])
      c.declare({ name, type: 'object', required: false, description: `The webhook request's ${name}` });
    const wait = str(p.responseMode, 'onReceived') !== 'onReceived';
    return {
      outcome: 'mapped',
      why: [
        t(
          "The Start node: its inputs body, query and headers are the request's, as n8n's $json.body … read them. " +
            "After publishing, create the webhook trigger this entry names (its URL and secret replace n8n's path " +
            `"${str(p.path)}")${wait ? '; it waits for the run and answers with its outputs' : ''}.`,
          '开始节点：输入 body、query、headers 即请求的相应部分，与 n8n 的 $json.body 等对应。发布后请创建本条目给出的 ' +
            `Webhook 触发器（用它的 URL 和密钥替代 n8n 的路径“${str(p.path)}”）${wait ? '；它会等待运行结束并返回输出' : ''}。`,
        ),
      ],
      trigger: {
        type: 'webhook',
        name: n.name.slice(0, 100),
        auth: { type: 'header' },
        mapping: { body: '{{body}}', query: '{{query}}', headers: '{{headers}}' },
        response: wait ? 'wait' : 'async',
      },
    };
  }
  if (type === 'n8n-nodes-base.scheduleTrigger' || type === 'n8n-nodes-base.cron') {
    const cron = type === 'n8n-nodes-base.cron' ? legacyCron(p) : cronOf(p.rule);
    return {
      outcome: cron ? 'mapped' : 'approximated',
      why: [
        cron
          ? t(
              'The Start node. After publishing, create the schedule trigger this entry names ' +
                `(cron "${cron}", ${timezone}).`,
              `开始节点。发布后请创建本条目给出的定时触发器（cron “${cron}”，${timezone}）。`,
            )
          : t(
              'The Start node; its schedule rule has no cron equivalent: create a schedule trigger by hand.',
              '开始节点；其定时规则无法转换为 cron：请手动创建定时触发器。',
            ),
      ],
      ...(cron ? { trigger: { type: 'schedule', name: n.name.slice(0, 100), cron, timezone } } : {}),
    };
  }
  if (type === '@n8n/n8n-nodes-langchain.chatTrigger') {
    c.declare({ name: 'chatInput', type: 'string', required: true, description: 'The chat message' });
    c.declare({ name: 'sessionId', type: 'string', required: false, description: 'The conversation' });
    return {
      outcome: 'mapped',
      why: [t('The Start node, with the inputs chatInput and sessionId.', '开始节点，输入为 chatInput 和 sessionId。')],
    };
  }
  if (type === 'n8n-nodes-base.manualTrigger' || type === LEGACY_START)
    return {
      outcome: 'mapped',
      why: [t('The Start node: run it from the editor or the API.', '开始节点：可在编辑器中或通过 API 运行。')],
    };
  return {
    outcome: 'approximated',
    why: [
      t(
        `The Start node: PaiFlow has no ${type} trigger; start runs from the API or a webhook trigger instead.`,
        `开始节点：PaiFlow 没有 ${type} 触发器；请改用 API 或 Webhook 触发器启动运行。`,
      ),
    ],
  };
}
