import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { navigate } from '../../router.js';

/**
 * Copies a workflow's system template into the client's templates (POST /client/workflows/{id}/clone-template) and
 * opens the copy in the editor. The workflow keeps sending the system template until the copy is chosen on its page.
 */
export const useCopyTemplate = (api: Api) =>
  useAction(async (workflowId: number) => {
    const answer = await answerOf(
      api.POST('/api/v1/client/workflows/{workflow_id}/clone-template', {
        params: { path: { workflow_id: String(workflowId) } },
      }),
      'Copying the template',
    );
    navigate('template', { id: String(answer.data.id) });
  });
