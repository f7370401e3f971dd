import type { ModalFuncProps } from 'antd/es/modal/interface';

// Toasts and dialogs load their code on first use: most page views never show one, and the
// sign-in page stays lighter. Every text is passed in translated, so no locale context is needed.
const loadMessage = () => import('antd/es/message').then((module) => module.default);
const loadModal = () => import('antd/es/modal').then((module) => module.default);

/** Toasts and dialogs for code inside and outside components. */
export const feedback = {
  error(text: string, seconds: number): void {
    void loadMessage().then((message) => message.error(text, seconds));
  },
  warning(text: string, seconds: number): void {
    void loadMessage().then((message) => message.warning(text, seconds));
  },
  success(text: string, seconds: number): void {
    void loadMessage().then((message) => message.success(text, seconds));
  },
  confirm(props: ModalFuncProps): void {
    void loadModal().then((modal) => modal.confirm(props));
  },
};
