import { forbidden } from '../../errors.js';
import { TEMPLATE_TYPES, type TemplateRecord } from './template-store.js';

/** 403 for a system template the client can see but never change (update and delete alike). */
export function refuseSystemTemplate(template: TemplateRecord): void {
  if (template.type === TEMPLATE_TYPES.system) {
    throw forbidden(
      'id',
      'System templates are read-only; copy one with POST /client/workflows/{workflow_id}/clone-template and edit the copy',
    );
  }
}
