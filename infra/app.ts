import { App } from 'aws-cdk-lib';
import { composeApp } from './compose-app.js';
import { buildDashboard } from '../scripts/dashboard/build.js';

// The dashboard's files (app/dist) ship beside its functions' bundles: built first, from the tree being synthesized.
await buildDashboard();
composeApp(new App());
