/** Bytes held for out-of-order writes: one per connection, whose parent is the process's. */
export class ReorderBudget {
  used = 0;
  constructor(
    readonly max: number,
    private readonly parent?: ReorderBudget,
  ) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.max) return false;
    if (this.parent && !this.parent.take(bytes)) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.parent?.release(bytes);
  }
}
