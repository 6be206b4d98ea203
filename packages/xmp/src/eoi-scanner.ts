// Finds the EOI marker in the image data that follows the first SOS.
import { EOI, isStandalone } from './jpeg-segments.ts';

/**
 * Finds EOI after the first SOS, so a file cut short is reported. Walks markers the way a
 * decoder does: FF00 and RSTn belong to scan data, other markers between progressive scans
 * (DHT, SOS, ...) have a length that is skipped, so bytes inside them cannot fake an EOI.
 */
export class EoiScanner {
  found = false;
  private state: 'data' | 'marker' | 'length1' | 'length2' | 'skip' = 'data';
  private lengthHigh = 0;
  private remaining = 0;

  feed(buf: Buffer): void {
    let i = 0;
    while (i < buf.length && !this.found) {
      switch (this.state) {
        case 'data': {
          // Tight loop over the common case, FF 00 (a stuffed FF) and restart markers.
          let ff = buf.indexOf(0xff, i);
          while (ff >= 0 && ff + 1 < buf.length) {
            const next = buf[ff + 1] ?? 0;
            if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) break;
            ff = buf.indexOf(0xff, ff + 2);
          }
          if (ff < 0) return;
          i = ff + 1;
          this.state = 'marker';
          break;
        }
        case 'marker': {
          const byte = buf[i++] ?? 0;
          if (byte === 0xff) break; // fill byte
          if (byte === EOI) this.found = true;
          else if (byte === 0x00 || isStandalone(byte)) this.state = 'data';
          else this.state = 'length1';
          break;
        }
        case 'length1':
          this.lengthHigh = buf[i++] ?? 0;
          this.state = 'length2';
          break;
        case 'length2': {
          this.remaining = ((this.lengthHigh << 8) | (buf[i++] ?? 0)) - 2;
          this.state = this.remaining > 0 ? 'skip' : 'data';
          break;
        }
        case 'skip': {
          const take = Math.min(this.remaining, buf.length - i);
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = 'data';
          break;
        }
      }
    }
  }
}
