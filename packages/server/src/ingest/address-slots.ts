/**
 * Connections from one client address at once, for the FTP and SFTP servers: one client cannot
 * hold every connection the process can serve (a probe held 2,740 idle FTP connections).
 */
export class AddressSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A slot for `address`, or undefined when it has none left; call the result once it closes. */
  take(address: string): (() => void) | undefined {
    const count = (this.open.get(address) ?? 0) + 1;
    if (count > this.max) return undefined;
    this.open.set(address, count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(address) ?? 1) - 1;
      if (left > 0) this.open.set(address, left);
      else this.open.delete(address);
    };
  }
}
