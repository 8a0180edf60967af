import type { Api } from '../../api/client.js';
import { useLoad } from '../../data/use-load.js';

/** The segment and topic names an audience shows (a failed read leaves ids). */
export function useAudienceNames(api: Api) {
  const loaded = useLoad(
    async (signal) => {
      const [segments, topics] = await Promise.all([
        api.GET('/api/v1/client/segments', { signal }).then((answer) => answer.data?.data.segments ?? []),
        api.GET('/api/v1/client/topics', { signal }).then((answer) => answer.data?.data.topics ?? []),
      ]);
      return {
        segmentList: segments as { id: number; name: string; count: number }[],
        topicList: topics as { id: number; name: string }[],
        segments: new Map<number, string>(segments.map((s: { id: number; name: string }) => [s.id, s.name])),
        topics: new Map<number, string>(topics.map((t: { id: number; name: string }) => [t.id, t.name])),
      };
    },
    [api],
  );
  return (
    loaded.data ?? {
      segmentList: [],
      topicList: [],
      segments: new Map<number, string>(),
      topics: new Map<number, string>(),
    }
  );
}
