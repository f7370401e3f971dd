import type { Lang } from './lang';

/**
 * Server messages of the public page's settings (/traceabilitySystem/traceHomeMode) and of the
 * bases' and growth records' photos (docs/traceability.md); messages.ts spreads them in.
 */
export const TRACE_SETTING_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'validation.traceColor': '{field}: write a colour as # and six hex digits, e.g. #2E7D32',
    'trace.pageSetting.logoForm':
      '{field}: upload a PNG, JPEG, GIF or WebP image, or give a path on this server starting with /',
    'trace.pageSetting.logoTooLarge': '{field} is larger than {max} KB',
    'trace.pageSetting.logoNotImage': '{field}: its bytes are not the {type} image it says it is',
    'trace.pageSetting.noPackage':
      '{field}: there is no package batch with this trace code to preview the page with',
    'trace.photo.tooMany': '{field}: at most {max} photos each; delete one first',
  },
  zh: {
    'validation.traceColor': '{field}：颜色请写成 # 加六位十六进制数，如 #2E7D32',
    'trace.pageSetting.logoForm':
      '{field}：请上传 PNG、JPEG、GIF 或 WebP 图片，或填写本站以 / 开头的路径',
    'trace.pageSetting.logoTooLarge': '{field}超过 {max} KB',
    'trace.pageSetting.logoNotImage': '{field}：文件内容不是所声明的 {type} 图片',
    'trace.pageSetting.noPackage': '{field}：没有此溯源码的包装批次，无法预览',
    'trace.photo.tooMany': '{field}：每项最多 {max} 张照片，请先删除一张',
  },
  tw: {
    'validation.traceColor': '{field}：顏色請寫成 # 加六位十六進位數，如 #2E7D32',
    'trace.pageSetting.logoForm':
      '{field}：請上傳 PNG、JPEG、GIF 或 WebP 圖片，或填寫本站以 / 開頭的路徑',
    'trace.pageSetting.logoTooLarge': '{field}超過 {max} KB',
    'trace.pageSetting.logoNotImage': '{field}：檔案內容不是所聲明的 {type} 圖片',
    'trace.pageSetting.noPackage': '{field}：沒有此溯源碼的包裝批次，無法預覽',
    'trace.photo.tooMany': '{field}：每項最多 {max} 張照片，請先刪除一張',
  },
};
