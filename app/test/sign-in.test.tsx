import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { SignInPage } from '../src/pages/sign-in.js';
import { failure, fakeApi } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-in page', () => {
  it('posts the address to /api/v1/auth/sign-in and then says to check the e-mail', async () => {
    // Prepare
    const calls = fakeApi({
      'POST /api/v1/auth/sign-in': {
        status: 202,
        body: { data: {}, errors: [], message: 'Accepted', meta: { request_id: 'r' }, success: true },
      },
    });
    render(<SignInPage api={createApi()} />);

    // Act
    fireEvent.input(screen.getByLabelText('E-mail address'), { target: { value: 'demo@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('demo@example.com');
    expect(calls.map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', '/api/v1/auth/sign-in', { email: 'demo@example.com' }],
    ]);
  });

  it("shows the API's error item at the field it names", async () => {
    fakeApi({
      'POST /api/v1/auth/sign-in': failure(422, 'Validation failed', [
        { condition: 'format', error: 'Must be a valid e-mail address', key: 'email' },
      ]),
    });
    render(<SignInPage api={createApi()} />);

    const input = screen.getByLabelText('E-mail address');
    fireEvent.input(input, { target: { value: 'not-an-address' } });
    fireEvent.submit(input.closest('form')!);

    expect(await screen.findByText('Must be a valid e-mail address')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Must be a valid e-mail address',
    );
    expect(screen.queryByRole('heading', { name: 'Check your e-mail' })).toBeNull();
  });

  it('shows a refusal without a field (too many requests) as an alert, and keeps the form', async () => {
    fakeApi({
      'POST /api/v1/auth/sign-in': failure(429, 'Too many sign-in requests; try again later', [
        { condition: 'rate_limited', error: 'Too many' },
      ]),
    });
    render(<SignInPage api={createApi()} />);

    fireEvent.input(screen.getByLabelText('E-mail address'), { target: { value: 'demo@example.com' } });
    fireEvent.submit(screen.getByLabelText('E-mail address').closest('form')!);

    expect((await screen.findByRole('alert')).textContent).toBe('Too many sign-in requests; try again later');
    expect(screen.getByRole('button', { name: 'E-mail me a sign-in link' })).toBeTruthy();
  });
});
