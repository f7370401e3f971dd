import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

/**
 * The money reports' range of days: this year up to tomorrow in the browser's calendar, since the
 * tenant's zone may be a day ahead (Asia/Shanghai is already tomorrow from 16:00 UTC) and today's
 * entries are dated in the tenant's zone. Answers the range and its days as the calls take them.
 */
export function useReportRange() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().startOf('year'),
    dayjs().add(1, 'day'),
  ]);
  return {
    range,
    setRange,
    start: range[0].format('YYYY-MM-DD'),
    end: range[1].format('YYYY-MM-DD'),
  };
}

/** The range's picker: both ends always set. */
export function ReportRangePicker({
  range,
  onChange,
  testId,
}: {
  range: [Dayjs, Dayjs];
  onChange: (range: [Dayjs, Dayjs]) => void;
  testId: string;
}) {
  return (
    <DatePicker.RangePicker
      value={range}
      allowClear={false}
      onChange={(value) => value?.[0] && value[1] && onChange([value[0], value[1]])}
      data-testid={testId}
    />
  );
}
