/** The admin panel; its analytics and link-health tools arrive with the admin release. */
export default function Admin() {
  return (
    <div className="container stack">
      <h1>Admin Panel</h1>
      <p className="muted">Affiliate click analytics and link-health checks will appear here.</p>
    </div>
  )
}
