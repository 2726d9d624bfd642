/** Where the operator's choice of language is kept between visits (localStorage). */
export const LANGUAGE_STORAGE_KEY = 'ferry.console.language';
