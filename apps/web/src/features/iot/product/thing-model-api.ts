import { THING_MODEL_CALLS, type ProductThingModel, type ThingModel } from '@shuili/contract';
import { http } from '../../../lib/http';

export function fetchThingModel(serialNo: string, signal?: AbortSignal) {
  return http.get<ProductThingModel>(THING_MODEL_CALLS.query, { params: { serialNo }, signal });
}

/** Field errors stay with the editor, which shows them beside the rows they name. */
export function saveThingModel(serialNo: string, thingModel: ThingModel) {
  return http.put<unknown>(THING_MODEL_CALLS.update, {
    data: { serialNo, thingModel },
    quietFieldErrors: true,
  });
}
