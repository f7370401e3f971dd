import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import { BAYONET_CONFIG_SCREEN, BAYONET_PATH } from './hydrology-targets';

/**
 * A bayonet (watershed outlet) station's rating curve Q = a·(H − H0)^b over its validity period:
 * a section re-surveyed after a flood gets a new curve from that day, and each stored level is
 * turned into flow with the curve valid at its time. A station's periods never overlap (the
 * server refuses it, naming `validFrom`); an open end (`validTo` empty) runs until further notice.
 */
export const ratingCurveEntity = defineEntity({
  name: 'RatingCurve',
  title: label('Rating curves', '水位流量关系曲线', '水位流量關係曲線'),
  table: 'monitor_rating_curve',
  path: BAYONET_PATH,
  route: BAYONET_CONFIG_SCREEN,
  menuCode: 'ratingCurve',
  scope: 'tenant',
  defaultSort: { field: 'validFrom', order: 'descend' },
  fields: {
    deviceId: f.ref({
      label: label('Station', '卡口站', '卡口站'),
      required: true,
      target: DEVICE_TARGET,
      onDelete: 'cascade',
    }),
    a: f.decimal({
      label: label('Coefficient a', '系数 a', '係數 a'),
      required: true,
      min: 0.0001,
      max: 100_000,
      precision: 4,
    }),
    h0: f.decimal({
      label: label('Zero-flow level H0 (m)', '零流量水位 H0(m)', '零流量水位 H0(m)'),
      required: true,
      min: -100,
      max: 5000,
      precision: 3,
    }),
    b: f.decimal({
      label: label('Exponent b', '指数 b', '指數 b'),
      required: true,
      min: 0.5,
      max: 5,
      precision: 3,
    }),
    validFrom: f.datetime({
      label: label('Valid from', '生效时间', '生效時間'),
      required: true,
    }),
    validTo: f.datetime({ label: label('Valid until', '失效时间', '失效時間') }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});
