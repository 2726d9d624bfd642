/**
 * `certificates/<first two characters of the issuance id>/<issuanceId>.pdf`.
 *
 * The key names no user: pre-signed URLs and object-access logs then reveal nothing about who a
 * document belongs to (the issuance record does, in the database). The two-character folder
 * spreads documents over at most 256 folders (issuance ids are UUIDs), so the local store creates
 * a folder once per prefix rather than once per user (creating one is costly on some file
 * systems), and no folder grows without end.
 */
export function certificateObjectKey(issuanceId: string): string {
  return `certificates/${issuanceId.slice(0, 2)}/${issuanceId}.pdf`;
}
