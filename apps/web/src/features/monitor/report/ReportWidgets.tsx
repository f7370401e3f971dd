import type { AreaDef } from '@shuili/contract';
import { Card, Skeleton } from 'antd';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

/** What an area draws under its data report (AreaDef.widgets.report), each its own chunk. */
const REPORT_WIDGETS: Record<string, LazyExoticComponent<ComponentType>> = {
  runoffEventList: lazy(() =>
    import('../hydrology/RunoffEventList').then((module) => ({ default: module.RunoffEventList })),
  ),
};

/** The area's report widgets, in its declaration's order; unknown names draw nothing. */
export function ReportWidgets({ area }: { area: AreaDef | undefined }) {
  return (
    <>
      {(area?.widgets.report ?? []).map((name) => {
        const Widget = REPORT_WIDGETS[name];
        return Widget ? (
          <Card key={name} size="small" style={{ marginTop: 16 }} data-testid={`report-${name}`}>
            <Suspense fallback={<Skeleton active />}>
              <Widget />
            </Suspense>
          </Card>
        ) : null;
      })}
    </>
  );
}
