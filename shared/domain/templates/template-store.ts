/** Template `type`: 1 a system template shipped with the service (read-only), 2 a template the client owns. */
export const TEMPLATE_TYPES = { system: 1, client: 2 } as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[keyof typeof TEMPLATE_TYPES];

/**
 * Ids 1–999 are reserved for system templates (served from code); client templates get
 * CLIENT_TEMPLATE_ID_OFFSET + the `template` counter, so the two can never collide.
 */
export const CLIENT_TEMPLATE_ID_OFFSET = 1000;

export const isSystemTemplateId = (id: number): boolean => id > 0 && id < CLIENT_TEMPLATE_ID_OFFSET;

/** Summary of the template a copy was made from. */
export interface SourceTemplateSummary {
  id: number;
  name: string;
  subject: string;
  updated_at: string;
}

/** The editable content of a template; every part is an eta template restricted by DESIGN.md §6. */
export interface TemplateContent {
  name: string;
  subject: string;
  preview_text: string;
  html_body: string;
  text_body: string;
}

export interface TemplateRecord extends TemplateContent {
  id: number;
  /** Owning client; 0 for system templates. */
  client_id: number;
  type: TemplateType;
  source_template_id?: number;
  source_template?: SourceTemplateSummary;
  /** Set on a clone made by POST /client/workflows/{id}/clone-template: the workflow whose marker points here. */
  source_workflow_id?: number;
  created_at: string;
  updated_at: string;
  /** Soft deletion time; absent while the template is live. */
  deleted_at?: string;
}

export type TemplateChanges = Partial<TemplateContent>;

/** What a list shows of a template: everything but its bodies. */
export type TemplateSummary = Omit<TemplateRecord, 'html_body' | 'text_body'>;

/** The attributes of a TemplateSummary, for a store's projection. */
export const TEMPLATE_SUMMARY_FIELDS = [
  'id',
  'client_id',
  'type',
  'name',
  'subject',
  'preview_text',
  'source_template_id',
  'source_template',
  'source_workflow_id',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof TemplateSummary)[];

export type SoftDeleteOutcome =
  | { kind: 'deleted'; template: TemplateRecord }
  | { kind: 'missing' }
  /** A workflow customization of the client still uses the template. */
  | { kind: 'in_use'; workflowId: number }
  /** The client's journey index changed since it was read (a publish may have started using the template). */
  | { kind: 'journeys_changed' };

export interface TemplateStore {
  /** A client template (live or soft-deleted); undefined when the client has none with this id. */
  get(clientId: number, templateId: number): Promise<TemplateRecord | undefined>;
  /** Several client templates in one read; missing ids are left out. */
  getMany(clientId: number, templateIds: number[]): Promise<TemplateRecord[]>;
  /**
   * Up to `limit` of the client's templates by ascending id after `afterId` (soft-deleted ones included), without
   * their bodies; `more` when others follow. Reads at most `limit` + 1 templates.
   */
  listSummaries(
    clientId: number,
    page: { limit: number; afterId: number },
  ): Promise<{ templates: TemplateSummary[]; more: boolean }>;
  create(template: TemplateRecord): Promise<void>;
  /** Applies the changes to a live template; undefined when it is missing or deleted. */
  update(
    clientId: number,
    templateId: number,
    changes: TemplateChanges,
    at: string,
  ): Promise<TemplateRecord | undefined>;
  /**
   * Marks a live template deleted unless one of `workflowIds`' customizations uses it; a clone also releases its
   * workflow's clone marker, so the next clone-template makes a fresh copy. All in one transaction. With
   * `journeyIndexVersion`, also only if the client's journey index is still at that version (0: none exists), the one
   * read to find the journeys sending the template.
   */
  softDelete(
    template: TemplateRecord,
    workflowIds: readonly number[],
    at: string,
    journeyIndexVersion?: number,
  ): Promise<SoftDeleteOutcome>;
}
