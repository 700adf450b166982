// Identity of the StaticExport kind; every adapter and manifest takes these from here.
export const GROUP = 'docport.dev';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'StaticExport';
export const LIST_KIND = 'StaticExportList';
export const PLURAL = 'staticexports';
export const SINGULAR = 'staticexport';
export const SHORT_NAMES = ['stex'];
export const CATEGORIES = ['docport'];
