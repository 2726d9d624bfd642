import { localTime, utcTime } from '../format.js';

/** A moment in the operator's time zone; the same moment in UTC on hover (the title). */
export const Time = ({ iso }: { iso: string }) => (
  <time dateTime={iso} title={utcTime(iso)}>
    {localTime(iso)}
  </time>
);
