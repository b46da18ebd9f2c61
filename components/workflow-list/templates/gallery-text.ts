/**
 * The gallery's own words in English and Simplified Chinese. Kept in one table so the i18n layer (issue 19 item 1)
 * can take them over as they are.
 */
import type { GalleryLang } from './templates-api';

const TEXT = {
  en: {
    title: 'New workflow',
    subtitle: 'Start from a template, or from a blank canvas.',
    search: 'Search templates',
    all: 'All',
    blank: 'Blank workflow',
    use: 'Use template',
    creating: 'Creating…',
    loading: 'Loading templates…',
    loadFailed: 'Could not load the templates',
    none: 'No template matches your search.',
    howTo: 'How to use',
    preview: 'Preview',
    nodes: (n: number) => `${n} node${n === 1 ? '' : 's'}`,
    createFailed: 'Could not create the workflow',
    created: (name: string) => `Created “${name}”`,
    toSet: (n: number) => `${n} thing${n === 1 ? '' : 's'} to set before it can run — see its how-to`,
    close: 'Close',
  },
  zh: {
    title: '新建工作流',
    subtitle: '从模板开始，或者从空白画布开始。',
    search: '搜索模板',
    all: '全部',
    blank: '空白工作流',
    use: '使用此模板',
    creating: '正在创建…',
    loading: '正在加载模板…',
    loadFailed: '模板加载失败',
    none: '没有符合搜索条件的模板。',
    howTo: '使用说明',
    preview: '流程预览',
    nodes: (n: number) => `${n} 个节点`,
    createFailed: '工作流创建失败',
    created: (name: string) => `已创建「${name}」`,
    toSet: (n: number) => `运行前还有 ${n} 项需要设置，请查看使用说明`,
    close: '关闭',
  },
} as const;

export type GalleryText = (typeof TEXT)[GalleryLang];

export const galleryText = (lang: GalleryLang): GalleryText => TEXT[lang];
