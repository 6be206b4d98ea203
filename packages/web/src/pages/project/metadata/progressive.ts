// Long lists of the metadata tab render a screenful first (issue 16: inputs in under 1 s with the
// 2025.1 reference template, whose first category has 119 inputs); the rest follow in steps
// after that screenful is painted, each step in a transition that typing interrupts.
import { startTransition, useEffect, useState } from 'react';

/** How many of `total` items to render now: `first` at once, then `step` more per frame. */
export function useProgressiveCount(total: number, first = 8, step = 24): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count >= total) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame first, so the browser paints what is there before the next step renders.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setCount((shown) => shown + step)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [count, total, step]);
  return Math.min(count, total);
}
