import type { Lang } from './lang';

/**
 * Server messages of farm traceability (issue 21, docs/traceability.md): the pre-harvest
 * interval, the mass rules with their figures, codes and plot outlines. messages.ts spreads them in.
 */
export const TRACE_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'trace.phiNotPassed':
      '{field}: the plot was sprayed with {product} on {sprayedAt} (pre-harvest interval {days} days); harvesting is allowed from {allowedAt}',
    'trace.harvestOverdrawn':
      '{field}: harvest batch {batch} holds {quantity} {unit}, {taken} {unit} already processed or packed; {requested} {unit} more exceeds it ({available} {unit} left)',
    'trace.harvestBelowTaken':
      '{field}: {taken} {unit} of this batch are already processed or packed; its quantity cannot be {quantity} {unit}',
    'trace.processOverYield':
      '{field}: {output} {unit} exceeds the inputs {input} {unit} × expected yield {yield} = {max} {unit}',
    'trace.processOverdrawn':
      '{field}: process {process} put out {output} {unit}, {packed} {unit} already packed; {requested} {unit} more exceeds it ({available} {unit} left)',
    'trace.processBelowPacked':
      '{field}: {packed} {unit} of this process are already packed; its output cannot be {output} {unit}',
    'trace.shipmentOverdrawn':
      '{field}: package batch {code} has {packed} packages, {shipped} already shipped; {requested} more exceeds it ({available} left)',
    'trace.packageBelowShipped':
      '{field}: {shipped} packages of this batch are already shipped; it cannot hold {count}',
    'trace.packageOneSource':
      '{field}: a package batch is packed from one harvest batch or one process',
    'trace.gtinCheckDigit': '{field}: the check digit of this GTIN should be {expected}',
    'trace.phiRequired': '{field} is required for a spraying',
    'trace.polygon':
      '{field}: not a GeoJSON Polygon in WGS 84 (a closed ring of at least 4 [longitude, latitude] points, longitudes −180…180, latitudes −90…90)',
    'trace.recallReasonRequired': '{field}: a recall needs its reason',
  },
  zh: {
    'trace.phiNotPassed':
      '{field}：该地块于{sprayedAt}喷施{product}（安全间隔期{days}天），{allowedAt}起方可采收',
    'trace.harvestOverdrawn':
      '{field}：采收批次{batch}共{quantity}{unit}，已加工或包装{taken}{unit}，再取{requested}{unit}超出剩余的{available}{unit}',
    'trace.harvestBelowTaken':
      '{field}：该批次已加工或包装{taken}{unit}，数量不能改为{quantity}{unit}',
    'trace.processOverYield':
      '{field}：{output}{unit}超过投入{input}{unit}×预期得率{yield}={max}{unit}',
    'trace.processOverdrawn':
      '{field}：加工批次{process}产出{output}{unit}，已包装{packed}{unit}，再包装{requested}{unit}超出剩余的{available}{unit}',
    'trace.processBelowPacked':
      '{field}：该加工批次已包装{packed}{unit}，产出不能改为{output}{unit}',
    'trace.shipmentOverdrawn':
      '{field}：包装批次{code}共{packed}件，已发货{shipped}件，再发{requested}件超出剩余的{available}件',
    'trace.packageBelowShipped': '{field}：该批次已发货{shipped}件，包装数量不能改为{count}',
    'trace.packageOneSource': '{field}：包装批次须来自一个采收批次或一个加工批次',
    'trace.gtinCheckDigit': '{field}：该商品条码的校验位应为{expected}',
    'trace.phiRequired': '喷药须填写{field}',
    'trace.polygon':
      '{field}：不是WGS 84坐标的GeoJSON多边形（至少4个[经度,纬度]点的闭合环，经度−180…180，纬度−90…90）',
    'trace.recallReasonRequired': '{field}：召回须填写原因',
  },
  tw: {
    'trace.phiNotPassed':
      '{field}：該地塊於{sprayedAt}噴施{product}（安全間隔期{days}天），{allowedAt}起方可採收',
    'trace.harvestOverdrawn':
      '{field}：採收批次{batch}共{quantity}{unit}，已加工或包裝{taken}{unit}，再取{requested}{unit}超出剩餘的{available}{unit}',
    'trace.harvestBelowTaken':
      '{field}：該批次已加工或包裝{taken}{unit}，數量不能改為{quantity}{unit}',
    'trace.processOverYield':
      '{field}：{output}{unit}超過投入{input}{unit}×預期得率{yield}={max}{unit}',
    'trace.processOverdrawn':
      '{field}：加工批次{process}產出{output}{unit}，已包裝{packed}{unit}，再包裝{requested}{unit}超出剩餘的{available}{unit}',
    'trace.processBelowPacked':
      '{field}：該加工批次已包裝{packed}{unit}，產出不能改為{output}{unit}',
    'trace.shipmentOverdrawn':
      '{field}：包裝批次{code}共{packed}件，已發貨{shipped}件，再發{requested}件超出剩餘的{available}件',
    'trace.packageBelowShipped': '{field}：該批次已發貨{shipped}件，包裝數量不能改為{count}',
    'trace.packageOneSource': '{field}：包裝批次須來自一個採收批次或一個加工批次',
    'trace.gtinCheckDigit': '{field}：該商品條碼的檢查碼應為{expected}',
    'trace.phiRequired': '噴藥須填寫{field}',
    'trace.polygon':
      '{field}：不是WGS 84座標的GeoJSON多邊形（至少4個[經度,緯度]點的閉合環，經度−180…180，緯度−90…90）',
    'trace.recallReasonRequired': '{field}：召回須填寫原因',
  },
};
