// One MUI Tooltip for all icon-only row actions of the table (issue 27 item 10): it follows the
// pointer or the keyboard focus to any element with `data-tip` inside `children` and shows that
// text, which is also the element's aria-label. One instance instead of a Tooltip per icon keeps
// 200 rows as cheap as before (row-icons.tsx).
import { Box, Tooltip } from '@mui/material';
import { type ReactNode, useCallback, useState } from 'react';

type Tip = { anchor: HTMLElement; text: string };

const tipOf = (target: EventTarget | null): Tip | null => {
  const element = target instanceof Element ? target.closest<HTMLElement>('[data-tip]') : null;
  const text = element?.dataset.tip;
  return element && text ? { anchor: element, text } : null;
};

export function RowTooltip({ children }: { children: ReactNode }) {
  const [tip, setTip] = useState<Tip | null>(null);
  const show = useCallback((event: { target: EventTarget | null }) => {
    const next = tipOf(event.target);
    setTip((current) => (current?.anchor === next?.anchor ? current : next));
  }, []);
  const hide = useCallback(() => setTip(null), []);
  return (
    <Box onMouseOver={show} onMouseLeave={hide} onFocus={show} onBlur={hide} onClick={hide}>
      {children}
      <Tooltip
        open={tip !== null}
        title={tip?.text ?? ''}
        placement="top"
        arrow
        disableInteractive
        slotProps={{ popper: { anchorEl: tip?.anchor } }}
      >
        <span aria-hidden="true" style={{ position: 'absolute', width: 0, height: 0 }} />
      </Tooltip>
    </Box>
  );
}
