// Long lists of the metadata tab render a screenful first (issue 16: inputs in under 1 s with the
// 2025.1 reference template, whose first category has 119 inputs); the rest follow in steps
// after that screenful is painted, each step in a transition that typing interrupts.
import { startTransition, useEffect, useState } from 'react';

/** How many of `total` items to render now: `first` at once, then `step` more per frame. */
// Steps of 8, not 24 (issue 28 item 8): a step's commit (cards, and the long texts measuring their
// height) cannot be interrupted, and a click on another tab right after the inputs showed waited
// for it: the switch to the script tab took 394 ms.
export function useProgressiveCount(total: number, first = 8, step = 8): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count >= total) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => startTransition(() => setCount((shown) => shown + step)), 0);
    };
    // A frame first, so the browser paints the first screenful before the next step renders; the
    // later steps are tasks of their own (a click is handled between them) without a frame each.
    const frame = count === first ? requestAnimationFrame(next) : undefined;
    if (frame === undefined) next();
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [count, total, first, step]);
  return Math.min(count, total);
}
