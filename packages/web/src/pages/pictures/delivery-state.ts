// How far a picture got to one destination, in the words a photographer uses (issue 16):
// arrived (not sent yet), delivered, retrying (with the reason), failed; held (issue 26: no
// metadata could be written and the project holds such pictures until someone sends them).
import type { RecentUpload } from '../../api/pictures.ts';

export type DeliveryTone = 'arrived' | 'delivered' | 'retrying' | 'failed' | 'held' | 'other';
type Delivery = RecentUpload['deliveries'][number];

export function deliveryTone(delivery: Pick<Delivery, 'state' | 'trynumber'>): DeliveryTone {
  switch (delivery.state) {
    case 'succeeded':
      return 'delivered';
    case 'failed':
      return 'failed';
    case 'held':
      return 'held';
    case 'scheduled':
    case 'running':
      return delivery.trynumber > 0 ? 'retrying' : 'arrived';
    default:
      // duplicate, rejected, skipped: ended on purpose.
      return 'other';
  }
}

export const toneColor: Record<DeliveryTone, 'info' | 'success' | 'warning' | 'error' | 'default'> = {
  arrived: 'info',
  delivered: 'success',
  retrying: 'warning',
  failed: 'error',
  held: 'warning',
  other: 'default',
};
