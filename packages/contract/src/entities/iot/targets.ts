import type { RefTarget } from '../../entity-kit';

/** What IoT fields refer to; kept apart from the entities so they never import each other. */
export const PROJECT_TARGET: RefTarget = {
  table: 'iot_project',
  labelColumn: 'project_name',
  labelField: 'projectName',
  queryCall: '/api/iot/project/queryIotProject',
};

export const PRODUCT_TARGET: RefTarget = {
  table: 'iot_product',
  labelColumn: 'product_name',
  labelField: 'productName',
  queryCall: '/api/iot/product/queryIotProduct',
  codeField: 'serialNo',
};

export const FACTOR_TARGET: RefTarget = {
  table: 'iot_factor',
  labelColumn: 'factor_name',
  labelField: 'factorName',
  queryCall: '/api/iot/factor/queryIotFactor',
};

export const DEVICE_TARGET: RefTarget = {
  table: 'iot_device',
  labelColumn: 'device_name',
  labelField: 'deviceName',
  queryCall: '/api/iot/device/queryIotDevice',
};

export const SENSOR_TEMPLATE_TARGET: RefTarget = {
  table: 'iot_sensor_template',
  labelColumn: 'template_name',
  labelField: 'templateName',
  queryCall: '/api/iot/sensortemplate/querySensorTemplate',
};

export const CONTROLLER_TEMPLATE_TARGET: RefTarget = {
  table: 'iot_controller_template',
  labelColumn: 'template_name',
  labelField: 'templateName',
  queryCall: '/api/iot/controllertemplate/queryControllerTemplate',
};

/** Identifiers that appear in topics and URLs: no '/', '+', '#' or blanks (DEVICE_NO_PATTERN). */
export const IDENTIFIER_PATTERN = { source: '^[A-Za-z0-9_.-]+$', key: 'validation.identifier' };

/** Keys of thing-model properties and commands (THING_KEY_PATTERN). */
export const THING_KEY = { source: '^[a-z][A-Za-z0-9_]*$', key: 'validation.thingKey' };
