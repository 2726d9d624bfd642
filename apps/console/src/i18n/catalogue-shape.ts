import type { KO } from './catalogue-ko.js';

/** The Korean catalogue's shape with every leaf a string: what each language must provide. */
type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Catalogue = Shape<typeof KO>;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
/** Every message key, e.g. `tracks.title`, `policy.meaning.Immediate`, `rollout.figures`. */
export type CatalogueKey = Leaves<Catalogue>;
