// Guarantees: an n8n Schedule rule becomes the cron expression that fires at the same times (PaiFlow's schedule
// triggers take cron), and a JSON body with bare `{{ref}}` values is made valid JSON by quoting them, so PaiFlow
// fills in typed values; text that cannot be made JSON is said to be so (undefined), never silently changed.
import { describe, expect, it } from 'vitest';
import { jsonTemplate } from '@/lib/server/workflows/import/n8n-nodes';
import { cronOf } from '@/lib/server/workflows/import/n8n-triggers';

describe('schedule rules', () => {
  it.each([
    [{ interval: [{}] }, '0 0 * * *'],
    [{ interval: [{ field: 'days', triggerAtHour: 9, triggerAtMinute: 30 }] }, '30 9 * * *'],
    [{ interval: [{ field: 'days', daysInterval: 2, triggerAtHour: 6 }] }, '0 6 */2 * *'],
    [{ interval: [{ field: 'hours', hoursInterval: 4, triggerAtMinute: 15 }] }, '15 */4 * * *'],
    [{ interval: [{ field: 'minutes', minutesInterval: 10 }] }, '*/10 * * * *'],
    [{ interval: [{ field: 'seconds', secondsInterval: 45 }] }, '*/45 * * * * *'],
    [{ interval: [{ field: 'weeks', triggerAtDay: [1, 5], triggerAtHour: 8 }] }, '0 8 * * 1,5'],
    [{ interval: [{ field: 'months', triggerAtDayOfMonth: 15, triggerAtHour: 7 }] }, '0 7 15 */1 *'],
    [{ interval: [{ field: 'cronExpression', expression: ' 0 12 * * 1-5 ' }] }, '0 12 * * 1-5'],
  ])('%j → %s', (rule, cron) => {
    expect(cronOf(rule)).toBe(cron);
  });
});

describe('JSON bodies', () => {
  it('quote bare references outside strings and leave the rest as it is', () => {
    expect(jsonTemplate('{ "n": {{a.output.n}}, "s": "x {{b}} }" }')).toBe(
      '{ "n": "{{a.output.n}}", "s": "x {{b}} }" }',
    );
    expect(jsonTemplate('{"ok": true}')).toBe('{"ok": true}');
    expect(jsonTemplate('not json {{a}}')).toBeUndefined();
  });
});
