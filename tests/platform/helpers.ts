import { vi } from 'vitest';
import type { TimerStorage } from '../../src/platform';

/** An in-memory Storage (insertion-ordered keys), optionally refusing writes. */
export class MemoryStorage implements TimerStorage {
  private map = new Map<string, string>();
  refuseWrites = false;
  get length(): number {
    return this.map.size;
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.refuseWrites) throw new DOMException('quota', 'QuotaExceededError');
    this.map.set(key, String(value));
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs fetch with a URL -> answer table; unknown URLs answer 404. Returns the list of requested URLs. */
export function stubFetch(routes: Record<string, () => Response | Promise<Response>>): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = String(input);
      urls.push(url);
      const answer = routes[url.split('?')[0] ?? url];
      return answer ? answer() : json({ error: 'NOT_FOUND', message: 'no' }, 404);
    }),
  );
  return urls;
}

export const SESSION = {
  user: { email: 'nomfa@demo.test', firstName: 'Nico', lastName: 'Nomfa', id: 7, uid: 'u-7', entityType: 'TECHNICIAN', organizationId: 1, sysadmin: false },
  userType: 'TECHNICIAN',
  userSite: 'http://localhost:8080',
  features: ['helpCenter', 'ticketTimers'],
};
