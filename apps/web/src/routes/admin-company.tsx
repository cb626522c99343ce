import { Card, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AdminScreen } from '../components/admin-screen.tsx';
import { RecordHistory } from '../components/records/history-tab.tsx';
import { RecordQueryState } from '../components/records/record-load-state.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { backupOptions, companyHistoryOptions, companyOptions } from '../features/company/api/company-api.ts';
import { BackupCard } from '../features/company/components/backup-card.tsx';
import { CompanyForm } from '../features/company/components/company-form.tsx';
import { companyHistoryLabels } from '../features/company/components/company-form-values.ts';
import { CustomsRatesEditor } from '../features/company/components/customs-rates-editor.tsx';

function Backups() {
  const backups = useQuery(backupOptions());
  if (!backups.data)
    return <RecordQueryState query={backups} title="The backups could not be loaded" skeleton={[36, 80]} />;
  return <BackupCard overview={backups.data} />;
}

const TABS = ['settings', 'customs-rates', 'history', 'backups'] as const;
type Tab = (typeof TABS)[number];

/**
 * /admin/company: the forwarder's own data that offers, invoices and declarations print, and the
 * number series they take their numbers from, and how the backups went. Administrators with admin mode
 * on; the tabs follow `?tab=`.
 */
export default function AdminCompanyScreen() {
  const [search, setSearch] = useRouteSearch<{ tab?: string }>();
  const company = useQuery(companyOptions());
  const tab: Tab = TABS.find((t) => t === search.tab) ?? 'settings';

  return (
    <AdminScreen
      route="admin-company"
      noAccessMessage="Company settings are for administrators. Ask an administrator to change the company's data."
    >
      {!company.data ? (
        <RecordQueryState
          query={company}
          title="The company settings could not be loaded"
          skeleton={[36, 200, 120, 200]}
        />
      ) : (
        <Tabs
          value={tab}
          onChange={(value) => setSearch({ tab: value === 'settings' || !value ? undefined : value })}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="settings" data-testid="tab-settings">
              Settings
            </Tabs.Tab>
            <Tabs.Tab value="customs-rates" data-testid="tab-customs-rates">
              Customs rates
            </Tabs.Tab>
            <Tabs.Tab value="history" data-testid="tab-history">
              History
            </Tabs.Tab>
            <Tabs.Tab value="backups" data-testid="tab-backups">
              Backups
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="settings">
            <CompanyForm company={company.data} reload={async () => (await company.refetch()).data} />
          </Tabs.Panel>
          <Tabs.Panel value="customs-rates">
            <Card withBorder padding="lg" maw={880}>
              <CustomsRatesEditor />
            </Card>
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <RecordHistory
              query={companyHistoryOptions()}
              fieldLabels={companyHistoryLabels(company.data.series)}
              allowRaw
            />
          </Tabs.Panel>
          <Tabs.Panel value="backups">
            <Backups />
          </Tabs.Panel>
        </Tabs>
      )}
    </AdminScreen>
  );
}
