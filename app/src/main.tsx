import { render } from 'preact';
import { createApi } from './api/client.js';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App api={createApi()} />, root);
}
