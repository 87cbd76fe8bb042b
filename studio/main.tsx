import { createRoot } from 'react-dom/client';
import { Studio } from './Studio';
import { installFetchStub } from './stub-fetch';
import '../src/styles/app.css';
import './studio.css';

installFetchStub();
const root = document.getElementById('studio');
if (!root) throw new Error('studio/index.html has no #studio');
createRoot(root).render(<Studio />);
