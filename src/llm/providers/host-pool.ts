import type { Clock } from "../../clock.ts";

/**
 * Spreads calls over several model hosts round-robin. A host that just failed is put at the back
 * of the order for a cool-down, so requests go to healthy hosts but a lone host is still tried.
 */
export class HostPool {
  private next = 0;
  private readonly downUntil = new Map<string, number>();

  constructor(
    readonly hosts: string[],
    private readonly clock: Clock,
    private readonly coolDownMs = 15_000,
  ) {
    if (hosts.length === 0) throw new Error("HostPool needs at least one host");
  }

  /** Every host, once, in the order to try them for one call. */
  order(): string[] {
    const now = this.clock.now().getTime();
    const start = this.next;
    this.next = (this.next + 1) % this.hosts.length;
    const rotated = [...this.hosts.slice(start), ...this.hosts.slice(0, start)];
    const up = rotated.filter((h) => (this.downUntil.get(h) ?? 0) <= now);
    const down = rotated.filter((h) => (this.downUntil.get(h) ?? 0) > now);
    return [...up, ...down];
  }

  markDown(host: string): void {
    this.downUntil.set(host, this.clock.now().getTime() + this.coolDownMs);
  }

  markUp(host: string): void {
    this.downUntil.delete(host);
  }
}
