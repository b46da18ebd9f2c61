/**
 * A small labelled corpus for the retrieval-quality test, written for it: 36 internal-handbook style documents of a
 * fictional company and 27 queries with their relevant document. Three kinds of query:
 * - keyword: a rare exact term or code only (what BM25 is for; the test checks it occurs in the relevant document);
 * - paraphrase: no analysed term in common with the relevant document (what vectors are for; the test checks that);
 * - mixed: ordinary questions sharing some words.
 */
export const CORPUS: Array<{ id: string; title: string; text: string }> = [
  {
    id: 'd01',
    title: 'Returns',
    text:
      'Customers can return unused products within 30 days of delivery for a full refund. ' +
      'Refunds are issued to the original payment method within five business days.',
  },
  {
    id: 'd02',
    title: 'Hybrid work',
    text:
      'Employees may work from home up to three days per week with their ' +
      "manager's approval. Core collaboration hours are 10:00 to 15:00.",
  },
  {
    id: 'd03',
    title: 'Passwords',
    text: 'Passwords for internal systems must be changed every 90 days and must contain at least 14 characters.',
  },
  {
    id: 'd04',
    title: 'Billing errors',
    text:
      'ERR-4521 indicates that the billing service could not reach the tax calculation provider. ' +
      'Retry after a minute; if it persists, open a ticket with the payments team.',
  },
  {
    id: 'd05',
    title: 'Parental leave',
    text:
      'New parents receive sixteen weeks of paid leave, ' +
      'which can be taken in up to three blocks during the first year.',
  },
  {
    id: 'd06',
    title: 'Expenses',
    text:
      'Submit travel expenses within 30 days using the Concur portal; ' +
      'receipts are required for any item above 25 euros.',
  },
  {
    id: 'd07',
    title: 'Network access',
    text:
      'To connect to the corporate network from outside the office, ' +
      'install the zx-tunnel client and sign in with your single sign-on account.',
  },
  {
    id: 'd08',
    title: 'Data retention',
    text: 'Customer log data is deleted automatically after 180 days unless a legal hold applies.',
  },
  {
    id: 'd09',
    title: 'Dogs in the office',
    text: 'Dogs are welcome in the Berlin office on Fridays as long as they are house-trained and vaccinated.',
  },
  {
    id: 'd10',
    title: 'Thermostat firmware',
    text: 'Firmware 4.7.2-rc3 fixes the overheating issue on the Model T thermostat but is still a release candidate.',
  },
  {
    id: 'd11',
    title: 'Onboarding',
    text:
      'During the first week, new hires meet their buddy, ' +
      'set up their laptop and complete the security awareness course.',
  },
  {
    id: 'd12',
    title: 'Incident severity',
    text:
      'A SEV1 incident means a full outage affecting all customers; ' +
      'the on-call engineer must page the incident commander within 5 minutes.',
  },
  {
    id: 'd13',
    title: 'Canteen',
    text: "The canteen serves vegetarian and vegan lunches daily between noon and two o'clock.",
  },
  {
    id: 'd14',
    title: 'Shipping times',
    text:
      'Standard shipping within the EU takes three to five business days; ' +
      'express delivery arrives the next day if ordered before 2 pm.',
  },
  {
    id: 'd15',
    title: 'Admin dashboard',
    text: 'The admin dashboard listens on port 8443 and only accepts connections from the management subnet.',
  },
  {
    id: 'd16',
    title: 'Air purifier filters',
    text:
      'Product SKU 88-QX-17 is the replacement filter for the ' +
      'AirPure 300 purifier and should be changed every six months.',
  },
  {
    id: 'd17',
    title: 'Performance reviews',
    text: 'Performance reviews take place twice a year, in March and September, and include peer feedback.',
  },
  {
    id: 'd18',
    title: 'Bike leasing',
    text: 'Staff can lease an e-bike through the company scheme; the monthly rate is deducted from gross salary.',
  },
  {
    id: 'd19',
    title: 'Backups',
    text: 'Databases are backed up every night and snapshots are kept for 35 days in a separate region.',
  },
  {
    id: 'd20',
    title: 'Sickness',
    text: "If you are ill, notify your team lead before 9 am and submit a doctor's note from the third day of absence.",
  },
  {
    id: 'd21',
    title: 'Privacy requests',
    text: 'Requests from individuals to access or erase their personal data must be answered within one month.',
  },
  {
    id: 'd22',
    title: 'Delayed order',
    text: 'Order ORD-99812 was delayed because the warehouse in Rotterdam ran out of packaging material.',
  },
  {
    id: 'd23',
    title: 'Laptops',
    text:
      'Employees receive a new laptop every three years; ' +
      'broken devices are replaced by the IT helpdesk within two days.',
  },
  {
    id: 'd24',
    title: 'Meeting rooms',
    text: 'Meeting rooms can be booked for at most four hours at a time through the calendar.',
  },
  {
    id: 'd25',
    title: 'Learning budget',
    text: 'Every employee has an annual learning budget of 1,500 euros for courses, books and conferences.',
  },
  {
    id: 'd26',
    title: 'Phishing',
    text: 'Forward suspicious e-mails to the security team and do not click any links or open attachments.',
  },
  {
    id: 'd27',
    title: 'Generative AI',
    text:
      'Policy AIP-7 governs the use of generative AI tools: ' +
      'confidential source code must never be pasted into public chatbots.',
  },
  {
    id: 'd28',
    title: 'Garage',
    text: 'The garage has 40 spaces; electric vehicles may charge for free for up to four hours.',
  },
  {
    id: 'd29',
    title: 'API limits',
    text: 'The public API allows 600 requests per minute per key; exceeding it returns HTTP 429.',
  },
  {
    id: 'd30',
    title: 'Vacation',
    text: 'Full-time staff get 28 vacation days per year plus public holidays; unused days expire on March 31.',
  },
  {
    id: 'd31',
    title: 'Code review',
    text: 'Every pull request needs approval from two reviewers and a green CI pipeline before it can be merged.',
  },
  {
    id: 'd32',
    title: 'Known issues',
    text: 'Known issue KB-2231: the mobile app crashes on login when the device language is set to Turkish.',
  },
  {
    id: 'd33',
    title: 'Fire safety',
    text:
      'In case of fire, leave the building by the nearest staircase; ' +
      'do not use the elevators. The assembly point is the car park.',
  },
  {
    id: 'd34',
    title: 'Pricing',
    text: 'The Pro plan costs 49 euros per user per month, billed annually; a 14-day free trial is available.',
  },
  { id: 'd35', title: 'Coffee machine', text: 'Descale the espresso machine on the third floor every Monday morning.' },
  {
    id: 'd36',
    title: 'Speak up',
    text: 'Misconduct can be reported anonymously through the ethics hotline, which is run by an external provider.',
  },
];

export type QueryKind = 'keyword' | 'paraphrase' | 'mixed';

export const QUERIES: Array<{ q: string; relevant: string; kind: QueryKind }> = [
  { q: 'ERR-4521', relevant: 'd04', kind: 'keyword' },
  { q: 'KB-2231', relevant: 'd32', kind: 'keyword' },
  { q: '88-QX-17', relevant: 'd16', kind: 'keyword' },
  { q: '4.7.2-rc3', relevant: 'd10', kind: 'keyword' },
  { q: 'ORD-99812', relevant: 'd22', kind: 'keyword' },
  { q: 'AIP-7', relevant: 'd27', kind: 'keyword' },
  { q: 'zx-tunnel', relevant: 'd07', kind: 'keyword' },
  { q: '8443', relevant: 'd15', kind: 'keyword' },
  { q: 'SEV1', relevant: 'd12', kind: 'keyword' },
  { q: 'Concur', relevant: 'd06', kind: 'keyword' },
  { q: 'AirPure 300', relevant: 'd16', kind: 'keyword' },
  { q: 'How do I get my money back for a purchase?', relevant: 'd01', kind: 'paraphrase' },
  { q: 'Can I do my job remotely?', relevant: 'd02', kind: 'paraphrase' },
  { q: 'How frequently do I need to update my login secret?', relevant: 'd03', kind: 'paraphrase' },
  { q: 'How long is maternity or paternity time off?', relevant: 'd05', kind: 'paraphrase' },
  { q: 'Can I bring my puppy to work?', relevant: 'd09', kind: 'paraphrase' },
  { q: 'What should I do if there is a blaze at the premises?', relevant: 'd33', kind: 'paraphrase' },
  { q: 'Where should I leave my automobile?', relevant: 'd28', kind: 'paraphrase' },
  {
    q: 'Is there a way to flag unethical behaviour without revealing my identity?',
    relevant: 'd36',
    kind: 'paraphrase',
  },
  { q: 'How expensive is the premium tier?', relevant: 'd34', kind: 'paraphrase' },
  { q: "What do I do when I'm unwell?", relevant: 'd20', kind: 'paraphrase' },
  { q: 'How many vacation days do full-time employees get?', relevant: 'd30', kind: 'mixed' },
  { q: 'What is the API rate limit per key?', relevant: 'd29', kind: 'mixed' },
  { q: 'How long are database snapshots kept?', relevant: 'd19', kind: 'mixed' },
  { q: 'Who replaces broken laptops?', relevant: 'd23', kind: 'mixed' },
  { q: 'When do performance reviews happen?', relevant: 'd17', kind: 'mixed' },
  { q: 'What is the annual learning budget?', relevant: 'd25', kind: 'mixed' },
];
