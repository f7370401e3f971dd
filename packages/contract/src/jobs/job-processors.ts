import { z } from 'zod';
import { DEVICE_AREAS } from '../areas/areas';
import { entityCalls } from '../entity-kit/define-entity';
import { rotationScheduleEntity } from '../entities/monitor/rotation-schedule.entity';
import type { EnumOption } from '../entity-kit/fields';
import { label, type Label } from '../entity-kit/label';
import type { ExecuteType, ProcessorType } from '../entities/jobs/job-options';

/**
 * The built-in processors' parameters (job_info.jobParams, a JSON object): declared once, so the
 * server checks them (a translated 400 naming the parameter) and the console draws their form.
 * No processor runs code a user wrote: each does one thing a district schedules.
 */
export interface ProcessorParam {
  name: string;
  kind: 'text' | 'int' | 'enum' | 'bool' | 'emails' | 'url' | 'json' | 'ref';
  label: Label;
  required?: boolean;
  min?: number;
  max?: number;
  options?: readonly EnumOption[];
  defaultValue?: string | number | boolean;
  /** `ref`: the query call whose rows the select offers, and the label field of its rows. */
  ref?: { queryCall: string; labelField: string };
}

export interface ProcessorDef {
  type: ProcessorType;
  /** What it does, shown under the processor select. */
  description: Label;
  params: readonly ProcessorParam[];
  /** The execute types it supports (MAP and MAP_REDUCE need a processor that splits its work). */
  executeTypes: readonly ExecuteType[];
}

const option = (value: string, en: string, zh: string, tw: string): EnumOption => ({
  value,
  label: label(en, zh, tw),
});

/** The areas a data report can be made of: those with a data report and factors to report. */
const REPORT_AREA_OPTIONS: readonly EnumOption[] = DEVICE_AREAS.filter(
  (area) => area.screens.dataReport !== undefined && area.reportFactors.length > 0,
).map((area) => ({ value: area.code, label: area.title }));

export const PROCESSORS: Record<ProcessorType, ProcessorDef> = {
  irrigationProgram: {
    type: 'irrigationProgram',
    description: label(
      'Starts a rotation schedule now (its groups in turn, as the schedule says).',
      '立即启动一个轮灌计划(按计划依次开启各组)。',
      '立即啟動一個輪灌計畫(按計畫依次開啟各組)。',
    ),
    params: [
      {
        name: 'scheduleId',
        kind: 'ref',
        label: label('Rotation schedule', '轮灌计划', '輪灌計畫'),
        required: true,
        ref: {
          queryCall: entityCalls(rotationScheduleEntity).query,
          labelField: 'scheduleName',
        },
      },
    ],
    executeTypes: ['STANDALONE'],
  },
  dataReport: {
    type: 'dataReport',
    description: label(
      "Makes an area's data report for the last period and e-mails it.",
      '生成某监测区域上一周期的数据报表并发送邮件。',
      '產生某監測區域上一週期的資料報表並寄送郵件。',
    ),
    params: [
      {
        name: 'areaCode',
        kind: 'enum',
        label: label('Area', '监测区域', '監測區域'),
        required: true,
        options: REPORT_AREA_OPTIONS,
      },
      {
        name: 'period',
        kind: 'enum',
        label: label('Period', '周期', '週期'),
        required: true,
        defaultValue: 'day',
        options: [
          option('day', 'Yesterday', '昨日', '昨日'),
          option('week', 'Last 7 days', '近 7 天', '近 7 天'),
          option('month', 'Last month', '上月', '上月'),
        ],
      },
      {
        name: 'format',
        kind: 'enum',
        label: label('Format', '格式', '格式'),
        required: true,
        defaultValue: 'xlsx',
        options: [
          option('xlsx', 'Excel', 'Excel', 'Excel'),
          option('csv', 'CSV', 'CSV', 'CSV'),
          option('pdf', 'PDF', 'PDF', 'PDF'),
        ],
      },
      {
        name: 'recipients',
        kind: 'emails',
        label: label('Recipients (e-mail)', '收件人(邮箱)', '收件人(郵箱)'),
        required: true,
        max: 20,
      },
    ],
    executeTypes: ['STANDALONE'],
  },
  retentionSweep: {
    type: 'retentionSweep',
    description: label(
      'Drops readings past their retention and forgets finished job history past the days given.',
      '删除超过保留期的读数,并清理超过天数的已结束任务记录。',
      '刪除超過保留期的讀數,並清理超過天數的已結束任務紀錄。',
    ),
    params: [
      {
        name: 'instanceDays',
        kind: 'int',
        label: label('Keep job instances (days)', '任务实例保留天数', '任務實例保留天數'),
        required: true,
        min: 1,
        max: 3650,
        defaultValue: 90,
      },
    ],
    executeTypes: ['STANDALONE', 'BROADCAST'],
  },
  alarmDigest: {
    type: 'alarmDigest',
    description: label(
      'Sends the alarms of the last hours as one message (bell and e-mail).',
      '将最近若干小时的告警汇总为一条消息发送(站内消息与邮件)。',
      '將最近若干小時的告警彙總為一則訊息傳送(站內訊息與郵件)。',
    ),
    params: [
      {
        name: 'hours',
        kind: 'int',
        label: label('Hours', '小时数', '小時數'),
        required: true,
        min: 1,
        max: 168,
        defaultValue: 24,
      },
      {
        name: 'openOnly',
        kind: 'bool',
        label: label('Open alarms only', '仅未恢复告警', '僅未恢復告警'),
        defaultValue: false,
      },
    ],
    executeTypes: ['STANDALONE'],
  },
  recomputeRollups: {
    type: 'recomputeRollups',
    description: label(
      'Recomputes the hourly rollups of the last days from the raw readings (one sub-task per day when mapped).',
      '按原始读数重算最近若干天的小时汇总(Map 时每天一个子任务)。',
      '依原始讀數重算最近若干天的小時彙總(Map 時每天一個子任務)。',
    ),
    params: [
      {
        name: 'days',
        kind: 'int',
        label: label('Days', '天数', '天數'),
        required: true,
        min: 1,
        max: 90,
        defaultValue: 1,
      },
    ],
    executeTypes: ['STANDALONE', 'MAP', 'MAP_REDUCE'],
  },
  webhook: {
    type: 'webhook',
    description: label(
      'Calls an outside HTTP address (never an internal one), with its own time limit.',
      '调用外部 HTTP 地址(禁止内网地址),有独立的超时。',
      '呼叫外部 HTTP 位址(禁止內網位址),有獨立的逾時。',
    ),
    params: [
      { name: 'url', kind: 'url', label: label('URL', '地址', '位址'), required: true, max: 2000 },
      {
        name: 'method',
        kind: 'enum',
        label: label('Method', '请求方法', '請求方法'),
        required: true,
        defaultValue: 'POST',
        options: [
          option('GET', 'GET', 'GET', 'GET'),
          option('POST', 'POST', 'POST', 'POST'),
          option('PUT', 'PUT', 'PUT', 'PUT'),
        ],
      },
      {
        name: 'body',
        kind: 'json',
        label: label('Body (JSON)', '请求体(JSON)', '請求主體(JSON)'),
        max: 20_000,
      },
      {
        name: 'requestTimeoutMs',
        kind: 'int',
        label: label('Request timeout (ms)', '请求超时(毫秒)', '請求逾時(毫秒)'),
        required: true,
        min: 100,
        max: 60_000,
        defaultValue: 10_000,
      },
    ],
    executeTypes: ['STANDALONE', 'BROADCAST'],
  },
};

/** A problem with a job's parameters: the parameter (or the whole text) and a validation key. */
export interface ParamsProblem {
  param: string;
  /** validation.required, validation.invalid, jobs.params.* */
  key: string;
}

function paramSchema(param: ProcessorParam): z.ZodType {
  switch (param.kind) {
    case 'int':
      return z
        .number()
        .int()
        .min(param.min ?? 0)
        .max(param.max ?? 1_000_000_000);
    case 'bool':
      return z.boolean();
    case 'enum':
      return z.enum((param.options ?? []).map((choice) => choice.value) as [string, ...string[]]);
    case 'ref':
      return z
        .union([z.string(), z.number().int().nonnegative()])
        .transform(String)
        .pipe(z.string().regex(/^\d{1,18}$/));
    case 'emails':
      return z
        .array(z.email())
        .min(param.required ? 1 : 0)
        .max(param.max ?? 20);
    case 'url':
      return z
        .string()
        .trim()
        .max(param.max ?? 2000)
        .refine((text) => /^https?:\/\//i.test(text) && URL.canParse(text));
    case 'json':
      return z
        .string()
        .max(param.max ?? 20_000)
        .refine((text) => {
          if (text.trim() === '') return true;
          try {
            JSON.parse(text);
            return true;
          } catch {
            return false;
          }
        });
    case 'text':
      return z
        .string()
        .trim()
        .min(param.required ? 1 : 0)
        .max(param.max ?? 255);
  }
}

/**
 * Parses and checks a processor's parameters (the job's JSON text); defaults fill what is
 * absent. Answers the parameters or the first problem.
 */
export function parseProcessorParams(
  type: ProcessorType,
  text: string | null | undefined,
): { params: Record<string, unknown> } | { problem: ParamsProblem } {
  let raw: unknown = {};
  if (text && text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      return { problem: { param: 'jobParams', key: 'jobs.params.notJson' } };
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { problem: { param: 'jobParams', key: 'jobs.params.notObject' } };
  const given = raw as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const param of PROCESSORS[type].params) {
    const value = given[param.name] ?? param.defaultValue;
    if (value === undefined || value === null || value === '') {
      if (param.required) return { problem: { param: param.name, key: 'validation.required' } };
      continue;
    }
    const parsed = paramSchema(param).safeParse(value);
    if (!parsed.success) return { problem: { param: param.name, key: 'validation.invalid' } };
    params[param.name] = parsed.data;
  }
  return { params };
}
