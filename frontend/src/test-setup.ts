import '@testing-library/jest-dom/vitest'
import { configure } from '@testing-library/react'

// `findBy…` and `waitFor` poll until what the user would see is there and return at once when
// it is: a generous ceiling only matters on a busy machine (CI beside other work), where a lazy
// chunk such as the score history's chart can take seconds to load.
configure({ asyncUtilTimeout: 10_000 })
