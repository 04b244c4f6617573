"""pytest suite of the warm-start helpers of fcsn/time_stepping.h
(fcsn.remap_contact_guess, fcsn.extrapolate_guess)."""

import numpy as np
import pytest

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
