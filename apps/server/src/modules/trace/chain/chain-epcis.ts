import {
  isoInTimeZone,
  type TraceChain,
  type TraceChainLotRef,
  type TraceChainView,
} from '@shuili/contract';

/**
 * The resume's chain as the EPCIS export reads it (packages/contract/src/trace/epcis.ts): times
 * in the tenant's zone with its offset, places as local keys (`area-7`, `base-2`,
 * `shipment-4-from`) named as recorded, lots by their numbers. A process that has no output yet
 * has produced nothing to tell of and is left out; a recall is told where it was recorded (what
 * was made from a recalled batch is recalled through it). Pure.
 */
export function epcisChainOf(view: TraceChainView, timeZone: string): TraceChain {
  const at = (value: string) => isoInTimeZone(new Date(value), timeZone);
  const recallOf = (node: { recalledAt: string | null; recallReason: string | null }) =>
    node.recalledAt
      ? {
          recall: {
            at: at(node.recalledAt),
            ...(node.recallReason ? { reason: node.recallReason } : {}),
          },
        }
      : {};
  const plantings = new Map(view.plantings.map((one) => [one.id, one]));
  const plants = new Map(view.plants.map((one) => [one.id, one]));
  const plots = new Map(view.plots.map((one) => [one.id, one]));
  const bases = new Map(view.bases.map((one) => [one.id, one]));
  const plantOf = (harvestId: string) => {
    const harvest = view.harvests.find((one) => one.id === harvestId);
    const planting = harvest && plantings.get(harvest.plantingId);
    return planting && plants.get(planting.plantId);
  };
  const gtin = (value: string | null | undefined) => (value ? { gtin: value } : {});
  const harvestRef = (harvestId: string): TraceChainLotRef => {
    const harvest = view.harvests.find((one) => one.id === harvestId);
    return {
      kind: 'harvest',
      id: harvestId,
      lot: harvest?.batchNo ?? `H-${harvestId}`,
      ...gtin(plantOf(harvestId)?.gtin),
    };
  };
  const processGtin = (processId: string) => {
    const first = view.processes.find((one) => one.id === processId)?.inputs[0];
    return first ? plantOf(first.harvestId)?.gtin : undefined;
  };
  const harvestUnits = new Map(view.harvests.map((one) => [one.id, one.unit]));

  return {
    harvests: view.harvests.map((harvest) => {
      const planting = plantings.get(harvest.plantingId)!;
      const plant = plants.get(planting.plantId)!;
      const plot = plots.get(planting.plotId)!;
      const base = bases.get(plot.baseId);
      return {
        id: harvest.id,
        batchNo: harvest.batchNo ?? `H-${harvest.id}`,
        product: `${plant.cropName} · ${plant.variety}`,
        ...gtin(plant.gtin),
        harvestedAt: at(harvest.harvestedAt),
        quantity: harvest.quantity,
        unit: harvest.unit,
        plot: { id: `area-${plot.id}`, name: plot.name },
        ...(base ? { base: { id: `base-${base.id}`, name: base.name } } : {}),
        ...recallOf(harvest),
      };
    }),
    processes: view.processes
      .filter((process) => process.outputQuantity !== null)
      .map((process) => ({
        id: process.id,
        processNo: process.processNo ?? `M-${process.id}`,
        type: process.processType,
        startedAt: at(process.startedAt),
        endedAt: at(process.endedAt ?? process.startedAt),
        inputs: process.inputs.map((input) => ({
          harvest: harvestRef(input.harvestId),
          quantity: input.quantity,
          unit: harvestUnits.get(input.harvestId) ?? process.unit,
        })),
        output: {
          quantity: process.outputQuantity!,
          unit: process.unit,
          ...gtin(processGtin(process.id)),
        },
        ...recallOf(process),
      })),
    packages: view.packages.map((pkg) => {
      const process = pkg.processId
        ? view.processes.find((one) => one.id === pkg.processId)
        : undefined;
      const source: TraceChainLotRef = pkg.harvestId
        ? harvestRef(pkg.harvestId)
        : {
            kind: 'process',
            id: pkg.processId!,
            lot: process?.processNo ?? `M-${pkg.processId}`,
            ...gtin(processGtin(pkg.processId!)),
          };
      return {
        id: pkg.id,
        traceCode: pkg.traceCode,
        ...gtin(pkg.gtin),
        lot: pkg.lot ?? source.lot,
        serial: pkg.traceCode,
        source,
        packageCount: pkg.packageCount,
        netQuantity: pkg.netQuantity,
        unit: pkg.unit,
        packedAt: at(pkg.packedAt),
        ...(pkg.bestBefore ? { bestBefore: at(pkg.bestBefore).slice(0, 10) } : {}),
        ...recallOf(pkg),
      };
    }),
    shipments: view.shipments.map((shipment) => ({
      id: shipment.id,
      packageId: shipment.packageId,
      packageCount: shipment.packageCount,
      ...(shipment.carrier ? { carrier: shipment.carrier } : {}),
      ...(shipment.vehicle ? { vehicle: shipment.vehicle } : {}),
      from: { id: `shipment-${shipment.id}-from`, name: shipment.fromPlace },
      to: { id: `shipment-${shipment.id}-to`, name: shipment.toPlace },
      departedAt: at(shipment.departedAt),
      ...(shipment.arrivedAt ? { arrivedAt: at(shipment.arrivedAt) } : {}),
      temperatures: shipment.temperatures.map((one) => ({ at: at(one.at), celsius: one.celsius })),
    })),
  };
}
