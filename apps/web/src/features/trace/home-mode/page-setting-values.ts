import {
  PUBLIC_TRACE_SECTIONS,
  type PublicTraceSection,
  type TracePageSetting,
  type TracePageSettingInput,
} from '@shuili/contract';

/** The settings form's values: sections as the list of those shown. */
export interface PageSettingValues {
  title: string;
  color: string;
  logo: string;
  contact: string;
  shown: PublicTraceSection[];
}

/** The form's fields, for the server's field errors (`sections.*` lands on `shown`). */
export const FORM_FIELDS = ['title', 'color', 'logo', 'contact', 'shown'] as const;

export const DEFAULT_VALUES: PageSettingValues = {
  title: '',
  color: '',
  logo: '',
  contact: '',
  shown: [...PUBLIC_TRACE_SECTIONS],
};

export function valuesOf(setting: TracePageSetting): PageSettingValues {
  return {
    title: setting.title ?? '',
    color: setting.color ?? '',
    logo: setting.logo ?? '',
    contact: setting.contact ?? '',
    shown: PUBLIC_TRACE_SECTIONS.filter((section) => setting.sections[section] !== false),
  };
}

/** What the save and preview calls take: blanks are no value, every section named. */
export function inputOf(values: Partial<PageSettingValues>): TracePageSettingInput {
  const shown = new Set(values.shown ?? PUBLIC_TRACE_SECTIONS);
  return {
    title: values.title?.trim() || null,
    color: values.color?.trim() || null,
    logo: values.logo?.trim() || null,
    contact: values.contact?.trim() || null,
    sections: Object.fromEntries(
      PUBLIC_TRACE_SECTIONS.map((section) => [section, shown.has(section)]),
    ) as Record<PublicTraceSection, boolean>,
  };
}
