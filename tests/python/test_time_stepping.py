"""pytest suite of fcsn/time_stepping.h in Python: the warm-start helpers
(fcsn.remap_contact_guess, fcsn.extrapolate_guess) and the theta-method step
problem (fcsn.MoreauJean) against its formulas."""

import numpy as np
import pytest
import scipy.sparse as sp

import fcsn


def guess(nc, offset=0.0, with_u=True):
    v = np.arange(4.0) + offset
    r = np.arange(3.0 * nc) + 10 + offset
    u = np.arange(3.0 * nc) + 100 + offset if with_u else None
    return fcsn.Guess(v, u, r)


def test_remap_carries_contacts_by_id():
    previous = guess(3)
    # Contact 7 vanished, 5 and 9 swapped places, 11 is new.
    new = fcsn.remap_contact_guess([5, 7, 9], previous, [9, 5, 11])
    np.testing.assert_array_equal(new.v, previous.v)
    np.testing.assert_array_equal(new.r[0:3], previous.r[6:9])
    np.testing.assert_array_equal(new.r[3:6], previous.r[0:3])
    np.testing.assert_array_equal(new.r[6:9], np.zeros(3))
    np.testing.assert_array_equal(new.u[0:3], previous.u[6:9])
    np.testing.assert_array_equal(new.u[6:9], np.zeros(3))


def test_remap_of_a_pair_has_no_u():
    v, r = np.zeros(4), np.arange(6.0)
    new = fcsn.remap_contact_guess(np.array([1, 2]), (v, r), np.array([2]))
    assert new.u is None
    np.testing.assert_array_equal(new.r, r[3:6])


def test_remap_rejects_repeated_ids_and_wrong_sizes():
    with pytest.raises(ValueError):
        fcsn.remap_contact_guess([1, 1, 2], guess(3), [1])
    with pytest.raises(ValueError):
        fcsn.remap_contact_guess([1, 2], guess(3), [1])


def test_extrapolate_is_the_linear_predictor():
    older, previous = guess(2), guess(2, offset=1.0)
    new = fcsn.extrapolate_guess(older, previous)
    for name in ("v", "u", "r"):
        np.testing.assert_array_equal(
            getattr(new, name),
            2 * getattr(previous, name) - getattr(older, name))
    with pytest.raises(ValueError):
        fcsn.extrapolate_guess(guess(1), guess(2))


def small_structure():
    """A 4-dof chain: M diagonal, K a path Laplacian, H two contacts on dofs
    (2, 0, 1) and (3, 1, 0)."""
    M = sp.diags([1.0, 2.0, 3.0, 4.0]).tocsc()
    K = sp.csc_matrix(10.0 * (2 * np.eye(4) - np.eye(4, k=1) - np.eye(4, k=-1)))
    H = sp.csc_matrix((np.ones(6), ([2, 0, 1, 3, 1, 0], np.arange(6))), shape=(4, 6))
    return M, K, H


def test_moreau_jean_matches_the_theta_method():
    M, K, H = small_structure()
    h, theta, alpha, beta = 0.01, 0.7, 0.5, 1e-3
    stepper = fcsn.MoreauJean(M, K, h=h, theta=theta, rayleigh_alpha=alpha,
                              rayleigh_beta=beta)
    C = alpha * M + beta * K
    M_hat = M + theta * h * C + (theta * h) ** 2 * K
    np.testing.assert_allclose(stepper.iteration_matrix.toarray(), M_hat.toarray(),
                               rtol=1e-14, atol=1e-14)
    q, v = np.arange(4.0), np.arange(4.0) - 1.5
    f_begin, f_end = np.ones(4), 2 * np.ones(4)
    p = stepper.external_impulse(f_begin, f_end)
    np.testing.assert_allclose(p, h * ((1 - theta) * f_begin + theta * f_end))
    f = stepper.free_term(q, v, p)
    expected = (M @ v + p - h * K @ q
                - (theta * (1 - theta) * h * h * K + (1 - theta) * h * C) @ v)
    np.testing.assert_allclose(f, expected, rtol=1e-13)
    q_tilde = q + (1 - theta) * h * v
    np.testing.assert_allclose(stepper.predicted_displacement(q, v), q_tilde)
    gaps = np.array([0.1, 0.2])
    w = stepper.gap_free_term(H, gaps, q, v)
    np.testing.assert_allclose(w[0::3], (gaps + (H.T @ q_tilde)[0::3]) / h)
    np.testing.assert_array_equal(w[1::3], 0.0)
    v_next = v + 1.0
    q_new, v_new = stepper.advance(v_next, q, v)
    np.testing.assert_allclose(q_new, q + h * ((1 - theta) * v + theta * v_next))
    np.testing.assert_array_equal(v_new, v_next)
    np.testing.assert_array_equal(q, np.arange(4.0))  # inputs untouched


def test_moreau_jean_rejects_bad_options_and_sizes():
    M, K, H = small_structure()
    with pytest.raises(ValueError):
        fcsn.MoreauJean(M, K, h=0.0)
    with pytest.raises(ValueError):
        fcsn.MoreauJean(M, sp.identity(3), h=0.01)
    stepper = fcsn.MoreauJean(M, K, h=0.01)
    with pytest.raises(ValueError):
        stepper.free_term(np.zeros(3), np.zeros(4), np.zeros(4))
    with pytest.raises(ValueError):
        stepper.gap_free_term(H, np.zeros(3), np.zeros(4), np.zeros(4))
