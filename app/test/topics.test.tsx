import '@preact/signals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { TopicsPage } from '../src/pages/topics/topics-page.js';
import { as, TOPIC } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';

const IN_USE = 'The topic is in use by workflow 2 (onboarding_tips): set their topic_id to null or another topic first';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the topics page', () => {
  it('teaches what a topic is when there is none, and creates one', async () => {
    // Prepare
    let topics: unknown[] = [];
    const calls = fakeApi({
      'GET /api/v1/client/topics': () => ok({ topics }, { total: topics.length, max_topics: 20 }),
      'POST /api/v1/client/topics': () => {
        topics = [TOPIC];
        return {
          status: 201,
          body: { data: TOPIC, errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
        };
      },
    });
    render(<TopicsPage api={createApi()} params={{}} signedIn={as('member')} />);
    expect((await screen.findByRole('heading', { name: 'No topic yet' })).parentElement!.textContent).toContain(
      'customization',
    );

    // Act
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: ' Product news ' } });
    fireEvent.click(screen.getByLabelText('Contacts who never chose get it'));
    fireEvent.click(screen.getByRole('button', { name: 'Create topic' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Product news' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Topic “Product news” created.');
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'Product news',
      description: '',
      default_subscribed: false,
    });
    expect(screen.getByText('1 of at most 20 topics.')).toBeTruthy();
  });

  it('shows a 409 on delete with the workflows that use the topic', async () => {
    fakeApi({
      'GET /api/v1/client/topics': ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 }),
      'DELETE /api/v1/client/topics/3': failure(409, 'Conflict', [{ condition: 'state', error: IN_USE, key: 'id' }]),
    });
    render(<TopicsPage api={createApi()} params={{}} signedIn={as('owner')} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Delete Product news' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));

    expect((await screen.findByRole('alert')).textContent).toBe(`Conflictid ${IN_USE}`);
  });

  it('edits a topic and shows a 409 name clash at the name field', async () => {
    const calls = fakeApi({
      'GET /api/v1/client/topics': ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 }),
      'PATCH /api/v1/client/topics/3': (call) =>
        (call.body as { name: string }).name === 'Tips'
          ? failure(409, 'Conflict', [{ condition: 'unique', error: 'Another topic has this name', key: 'name' }])
          : ok({ ...TOPIC, name: 'News' }),
    });
    render(<TopicsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Product news' }));
    const name = document.getElementById('st-topic-3-name')!;

    fireEvent.input(name, { target: { value: 'Tips' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save topic' }));

    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Another topic has this name',
    );
    fireEvent.input(name, { target: { value: 'News' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save topic' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Topic “News” saved.'));
    expect(calls.filter((call) => call.method === 'PATCH').at(-1)!.body).toEqual({
      name: 'News',
      description: '',
      default_subscribed: true,
    });
  });

  it('shows a viewer the topics with how many contacts left each, no control to change them, and the preview link', async () => {
    fakeApi({
      'GET /api/v1/client/topics': ok(
        {
          topics: [
            { ...TOPIC, contacts_left: 1 },
            { ...TOPIC, id: 4, name: 'Tips', contacts_left: 12 },
            { ...TOPIC, id: 5, name: 'Beta', contacts_left: 0 },
          ],
        },
        { total: 3, max_topics: 20 },
      ),
    });

    render(<TopicsPage api={createApi()} params={{}} signedIn={as('viewer')} />);

    const left = (name: string) =>
      screen.getByRole('heading', { name }).closest('li')!.querySelector('.contacts-left')!.textContent;
    await screen.findByRole('heading', { name: 'Product news' });
    expect([left('Product news'), left('Tips'), left('Beta')]).toEqual([
      '1 contact left this topic.',
      '12 contacts left this topic.',
      '0 contacts left this topic.',
    ]);
    expect(screen.queryByRole('button')).toBeNull();
    // The preview opens in a new tab; the session cookie authenticates the GET
    const preview = screen.getByRole('link', { name: 'Preview the preference page' });
    expect(preview.getAttribute('href')).toBe('/api/v1/client/topics/preference-page-preview');
    expect(preview.getAttribute('target')).toBe('_blank');
    expect(preview.getAttribute('rel')).toBe('noopener');
    expect(screen.queryByRole('heading', { name: 'Who left each topic' })).toBeNull();
  });
});
