import { lazy } from 'react'
import { Navigate, Outlet, createBrowserRouter } from 'react-router-dom'
import { Layout } from '@/app/layout/Layout'
import { RouteError } from '@/app/layout/RouteError'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import { RequireAuth } from '@/features/auth/components/RequireAuth'
// The landing page comes with the main script: lazy, its download would wait for the main
// script to run, and its hero (the largest paint of a first visit) for both, one after the other.
import Home from '@/routes/Home'

const About = lazy(() => import('@/routes/About'))
const Tips = lazy(() => import('@/routes/Tips'))
const Guide = lazy(() => import('@/routes/Guide'))
const HowWeScore = lazy(() => import('@/routes/HowWeScore'))
const Terms = lazy(() => import('@/routes/Terms'))
const PrivacyPolicy = lazy(() => import('@/routes/PrivacyPolicy'))
const Impressum = lazy(() => import('@/routes/Impressum'))
const AffiliateDisclaimer = lazy(() => import('@/routes/AffiliateDisclaimer'))
const Contact = lazy(() => import('@/routes/Contact'))
const Profile = lazy(() => import('@/routes/Profile'))
const Receipt = lazy(() => import('@/routes/Receipt'))
const ResetPassword = lazy(() => import('@/routes/ResetPassword'))
const VerifyEmail = lazy(() => import('@/routes/VerifyEmail'))
const Login = lazy(() => import('@/routes/Login'))
const Admin = lazy(() => import('@/routes/Admin'))
const BuyCredits = lazy(() => import('@/routes/BuyCredits'))
const Results = lazy(() => import('@/routes/Results'))
const MySetups = lazy(() => import('@/routes/MySetups'))
const RigpageConfig = lazy(() => import('@/routes/RigpageConfig'))
const NotFound = lazy(() => import('@/routes/NotFound'))
const Community = lazy(() => import('@/routes/Community'))
const MyPosts = lazy(() => import('@/routes/MyPosts'))
const UserProfile = lazy(() => import('@/routes/UserProfile'))
const CommunitySetup = lazy(() => import('@/routes/CommunitySetup'))
const Notifications = lazy(() => import('@/routes/Notifications'))
const Unsubscribe = lazy(() => import('@/routes/Unsubscribe'))

function Root() {
  return (
    <CookieConsentProvider>
      <Outlet />
    </CookieConsentProvider>
  )
}

/** Every route of both specifications' route tables but /rig/{slug}, which the server renders. */
export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      {
        element: <Layout />,
        // A page that fails to load (offline, or replaced by a new release) or crashes.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Home /> },
          { path: 'about', element: <About /> },
          { path: 'tips', element: <Tips /> },
          { path: 'tips/:slug', element: <Guide /> },
          { path: 'how-we-score', element: <HowWeScore /> },
          { path: 'terms', element: <Terms /> },
          { path: 'privacy-policy', element: <PrivacyPolicy /> },
          { path: 'privacy', element: <Navigate to="/privacy-policy" replace /> },
          { path: 'impressum', element: <Impressum /> },
          { path: 'affiliate-disclaimer', element: <AffiliateDisclaimer /> },
          { path: 'contact', element: <Contact /> },
          { path: 'profile', element: <Profile /> },
          { path: 'receipts/:reference', element: <Receipt /> },
          { path: 'reset-password', element: <ResetPassword /> },
          { path: 'verify-email', element: <VerifyEmail /> },
          { path: 'login', element: <Login /> },
          { path: 'admin', element: <RequireAuth role="admin"><Admin /></RequireAuth> },
          { path: 'community', element: <Community /> },
          { path: 'community/setup/:setupId', element: <CommunitySetup /> },
          { path: 'notifications', element: <RequireAuth><Notifications /></RequireAuth> },
          { path: 'unsubscribe', element: <Unsubscribe /> },
          { path: 'buy-credits', element: <BuyCredits /> },
          { path: 'my-setups', element: <MySetups /> },
          { path: 'my-posts', element: <MyPosts /> },
          { path: 'results', element: <Results /> },
          { path: 'rigpage-config', element: <RigpageConfig /> },
          // /rig/{slug} is rendered by the server (no SPA route): link to it with a plain <a href>.
          { path: 'user/:userId', element: <UserProfile /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
])
