import { describeObjectStoreContract } from './object-store.contract.js';

describeObjectStoreContract('local');
