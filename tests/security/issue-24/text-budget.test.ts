/**
 * The attack of issue 24, finding 5 for texts ("mail and text budgets per account and per address,
 * about 5 an hour"), replayed against the real server (docs/security.md): text-reset requests for one
 * account from many addresses, spread over 40 minutes so that a 15-minute window (the budget before)
 * would have let three batches through. Beside it a control: the owner, an hour later, gets a text and
 * its code works. The figures are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { makeApp } from '../../server/helpers';
import { body, client, figure, outbox, someAddress, reportFigures } from '../attack-helpers';

const MINUTE = 60 * 1000;
const PHONE = '+14155550123';
const request = { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' };

describe('5. text budget: about 5 an hour per phone and per account', () => {
  it('30 text resets to one phone over 40 minutes: 5 texts; the owner gets one an hour later', async () => {
    let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const flood = async () => {
        const answers: string[] = [];
        for (let i = 0; i < 10; i += 1) {
          const res = await client(app, someAddress()).post('/ws/account/reset-password-init', request);
          answers.push(res.statusCode === 429 ? `429 after ${res.headers['retry-after']} s` : String(body(res).resultCode));
        }
        return answers;
      };
      const first = await flood();
      expect(first.filter((a) => a === 'SUCCESS')).toHaveLength(LIMITS.textsPerPhonePerHour);
      expect(await outbox(app, PHONE)).toHaveLength(LIMITS.textsPerPhonePerHour);
      // 20 minutes on: past a 15-minute window, still inside the hour. The 6th text is refused, and says when to retry.
      clock += 20 * MINUTE;
      const second = await flood();
      expect(second).toEqual(Array.from({ length: 10 }, () => `429 after ${40 * 60} s`));
      clock += 20 * MINUTE;
      const third = await flood();
      expect(third.every((a) => a.startsWith('429 after '))).toBe(true);
      const texts = (await outbox(app, PHONE)).length;
      expect(texts).toBe(LIMITS.textsPerPhonePerHour);
      figure(5, 'texts to one phone from 30 text resets over 40 minutes (10 addresses every 20 minutes)', '15 (5 per 15 minutes: up to 20 an hour)', texts);

      // Control: an hour after the first text the owner asks again, gets a text, and its code works.
      clock += 21 * MINUTE;
      const owner = client(app, '192.0.2.10');
      expect(body(await owner.post('/ws/account/reset-password-init', request))).toMatchObject({ resultCode: 'SUCCESS' });
      const latest = await outbox(app, PHONE);
      expect(latest).toHaveLength(LIMITS.textsPerPhonePerHour + 1);
      const code = latest[0]!.code!; // newest first
      expect(body(await owner.post('/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: code }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
      figure(5, "the owner's text reset an hour after the flood", 'works', 'works');
    } finally {
      await app.close();
    }
  }, 60_000);
});

reportFigures('2-issue-24-e', 'The attack of issue 24, finding 5: the text budget');
