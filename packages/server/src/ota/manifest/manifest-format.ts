/** The response structures a manifest is served in, as the accept header chooses them (negotiateManifestFormat). */
export type ManifestFormat = 'multipart' | 'expo+json' | 'json';
