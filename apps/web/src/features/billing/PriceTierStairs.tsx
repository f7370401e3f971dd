import { priceClassEntity, priceTierEntity, type TierInput } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { resourceApi } from '../../resource/resource-api';
import { resourceKey } from '../../resource/use-resource';
import { exampleYuan, stairsOf } from './price-stairs';

const classes = resourceApi(priceClassEntity);
const tiers = resourceApi(priceTierEntity);
/** A district has a handful of classes and a few tiers each. */
const ALL = { currentPage: '1', pageSize: '500' };

/**
 * Each crop class's staircase under its tiers: the price within the quota, then per tier its
 * range over the quota, multiplier and price per m³, and the worked example of RESEARCH.md
 * (quota 100 m³, use 110 m³) priced by the same function the server charges sessions with.
 */
export function PriceTierStairs() {
  const { t } = useTranslation();
  // Under the entities' keys: any add, edit or delete of a class or tier draws it again.
  const classRows = useQuery({
    queryKey: [...resourceKey(priceClassEntity), 'stairs'],
    queryFn: ({ signal }) => classes.query(ALL, signal),
  });
  const tierRows = useQuery({
    queryKey: [...resourceKey(priceTierEntity), 'stairs'],
    queryFn: ({ signal }) => tiers.query(ALL, signal),
  });
  const list = classRows.data?.list ?? [];
  return (
    <Card
      size="small"
      style={{ marginTop: 16 }}
      title={t('billing.stairs.title')}
      data-testid="price-stairs"
    >
      {list.length === 0 ? (
        <Empty description={t('billing.stairs.none')} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {list.map((row) => {
            const basePrice = Number(row.basePrice);
            const own: TierInput[] = (tierRows.data?.list ?? [])
              .filter((tier) => String(tier.priceClassId) === String(row.id))
              .map((tier) => ({
                overQuotaPercent:
                  tier.overQuotaPercent === null || tier.overQuotaPercent === undefined
                    ? null
                    : Number(tier.overQuotaPercent),
                multiplier: Number(tier.multiplier),
              }));
            const stairs = stairsOf(basePrice, own);
            return (
              <Descriptions
                key={String(row.id)}
                size="small"
                column={1}
                bordered
                title={String(row.className)}
                data-testid="price-stairs-class"
                items={stairs.map((stair, index) => ({
                  key: String(index),
                  label:
                    stair.from === null
                      ? t('billing.stairs.withinQuota')
                      : stair.to === null
                        ? stair.from === 0
                          ? t('billing.stairs.overQuota')
                          : t('billing.stairs.beyond', { percent: stair.from })
                        : t('billing.stairs.upTo', { percent: stair.to }),
                  children: t('billing.stairs.unitPrice', {
                    price: stair.unitPrice.toFixed(2),
                    multiplier: stair.multiplier,
                  }),
                }))}
                extra={
                  <Typography.Text type="secondary" data-testid="price-stairs-example">
                    {t('billing.stairs.example', {
                      quota: 100,
                      use: 110,
                      amount: exampleYuan(basePrice, own).toFixed(2),
                    })}
                  </Typography.Text>
                }
              />
            );
          })}
        </Space>
      )}
    </Card>
  );
}
