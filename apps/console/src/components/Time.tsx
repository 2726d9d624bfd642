import { utcTime } from '../format.js';
import { useT } from '../i18n/use-t.js';

/** A moment in the operator's time zone; the same moment in UTC on hover (the title). */
export function Time({ iso }: { iso: string }) {
  const { time } = useT();
  return (
    <time dateTime={iso} title={utcTime(iso)}>
      {time(iso)}
    </time>
  );
}
