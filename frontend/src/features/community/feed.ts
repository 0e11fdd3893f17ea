import { api, unwrap, type Schemas } from '@/api/client'
import { PAGE_SIZE, type Filter, type Sort } from './logic'

// Apart from `api.ts`, whose hooks bring the toast library: the home page's glimpse of the
// feed needs only this.

export type SetupsPage = Schemas['SetupsResponse']

export async function fetchSetups(filter: Filter, sort: Sort, offset: number, limit = PAGE_SIZE): Promise<SetupsPage> {
  const result = await api.GET('/_api/community/setups', { params: { query: { filter, sort, limit, offset } } })
  return unwrap(result, 'Failed to fetch community setups.')
}
