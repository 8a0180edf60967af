/** Where the links in e-mails point: their own host when the deployment gives one, else the service's origin. */
export const linksBaseUrlOf = (config: { PUBLIC_BASE_URL: string; LINKS_BASE_URL?: string | undefined }): string =>
  config.LINKS_BASE_URL ?? config.PUBLIC_BASE_URL;
